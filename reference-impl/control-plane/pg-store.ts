// PostgreSQL backend of the control-plane store. Several server processes may share one database
// and behave as one service: a change of a deployment holds its row lock (`FOR UPDATE`), and the
// progress workers of all processes take due deployments with `FOR UPDATE SKIP LOCKED`, so each
// revision transition happens exactly once.
//
// Documents are stored as JSON text rather than jsonb: jsonb refuses "\u0000", which a client may
// legitimately send inside a string. Names are indexed by their SHA-256, as a name may be longer
// than a btree entry allows.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { withTransaction, type Pool, type PoolClient } from '../db.ts';
import type { Deployment, DeploymentChange, StoredRevision, UploadGrant } from './records.ts';
import type { ChangePlan, ControlPlaneStore, CreateCompanion, CreateOutcome, StoreOptions } from './store.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS cp_deployments (
  id text PRIMARY KEY,
  tenant_id text NOT NULL,
  name_key text NOT NULL,
  doc text NOT NULL,
  UNIQUE (tenant_id, name_key)
);
CREATE TABLE IF NOT EXISTS cp_revisions (
  id text PRIMARY KEY,
  deployment_id text NOT NULL REFERENCES cp_deployments (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  next_transition_at bigint,
  doc text NOT NULL,
  UNIQUE (deployment_id, seq)
);
CREATE INDEX IF NOT EXISTS cp_revisions_due ON cp_revisions (next_transition_at) WHERE next_transition_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS cp_uploads (
  token text PRIMARY KEY,
  tenant_id text NOT NULL,
  deployment_id text NOT NULL REFERENCES cp_deployments (id) ON DELETE CASCADE,
  object_path text NOT NULL,
  expires_at bigint NOT NULL,
  tarball bytea
);
CREATE INDEX IF NOT EXISTS cp_uploads_by_path ON cp_uploads (deployment_id, object_path);
CREATE INDEX IF NOT EXISTS cp_uploads_unused_by_expiry ON cp_uploads (expires_at) WHERE tarball IS NULL;
`;

/** Deployments one worker transaction takes at most; the rest wait for the next round. */
const DUE_BATCH = 32;

const nameKey = (name: string) => createHash('sha256').update(name).digest('hex');

/** PostgreSQL text cannot hold NUL; such a value can match nothing stored. */
const storable = (value: string) => !value.includes('\u0000');

interface RevisionRow {
  doc: string;
}

const parseRevision = (row: RevisionRow): StoredRevision => JSON.parse(row.doc) as StoredRevision;

export class PostgresStore implements ControlPlaneStore {
  private constructor(
    private readonly pool: Pool,
    private readonly options: StoreOptions,
  ) {}

  static async open(pool: Pool, options: StoreOptions): Promise<PostgresStore> {
    await withTransaction(pool, async (client) => {
      // Two processes starting at once would otherwise race on CREATE TABLE IF NOT EXISTS.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('apc control plane schema'))");
      await client.query(SCHEMA);
    });
    return new PostgresStore(pool, options);
  }

  async createDeployment(deployment: Deployment, firstRevision: StoredRevision, companion?: CreateCompanion): Promise<CreateOutcome> {
    return withTransaction(this.pool, async (client) => {
      const inserted = await client.query(
        `INSERT INTO cp_deployments (id, tenant_id, name_key, doc) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_id, name_key) DO NOTHING RETURNING id`,
        [deployment.id, deployment.tenant_id, nameKey(deployment.name), JSON.stringify(deployment)],
      );
      if (inserted.rowCount === 0) return 'name-taken';
      await this.insertRevision(client, firstRevision, false);
      await companion?.(client);
      return 'created';
    });
  }

  async findDeployment(tenantId: string | undefined, id: string): Promise<Deployment | undefined> {
    const { rows } = await this.pool.query<{ doc: string }>(
      'SELECT doc FROM cp_deployments WHERE id = $1 AND ($2::text IS NULL OR tenant_id = $2)',
      [id, tenantId ?? null],
    );
    return rows[0] && (JSON.parse(rows[0].doc) as Deployment);
  }

  async hasDeploymentNamed(tenantId: string, name: string): Promise<boolean> {
    if (!storable(name)) return false;
    const { rowCount } = await this.pool.query('SELECT 1 FROM cp_deployments WHERE tenant_id = $1 AND name_key = $2', [tenantId, nameKey(name)]);
    return (rowCount ?? 0) > 0;
  }

  async listDeployments(tenantId: string, select = (all: Deployment[]) => all): Promise<Deployment[]> {
    const { rows } = await this.pool.query<{ doc: string }>('SELECT doc FROM cp_deployments WHERE tenant_id = $1', [tenantId]);
    return select(rows.map((row) => JSON.parse(row.doc) as Deployment));
  }

  async changeDeployment<T>(tenantId: string, id: string, plan: ChangePlan<T>): Promise<{ result: T } | undefined> {
    if (this.options.faults('cp.patch-lost-under-concurrency')) {
      // FAULT cp.patch-lost-under-concurrency: no row lock; read, yield to other requests, then
      // write what was read, overwriting a revision that took the same place meanwhile.
      const current = await this.findDeployment(tenantId, id);
      if (!current) return undefined;
      const revisions = await this.listRevisions(id);
      await sleep(5);
      const planned = plan(current, revisions);
      if (planned.change) {
        const change = planned.change;
        await withTransaction(this.pool, (client) => this.write(client, change, true));
      }
      return { result: planned.result };
    }
    return withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ doc: string }>(
        'SELECT doc FROM cp_deployments WHERE id = $1 AND tenant_id = $2 FOR UPDATE',
        [id, tenantId],
      );
      if (!rows[0]) return undefined;
      const current = JSON.parse(rows[0].doc) as Deployment;
      const planned = plan(current, await this.revisionsOf(client, [id]));
      if (planned.change) await this.write(client, planned.change, false);
      return { result: planned.result };
    });
  }

  async deleteDeployment(tenantId: string, id: string): Promise<Deployment | undefined> {
    const { rows } = await this.pool.query<{ doc: string }>(
      'DELETE FROM cp_deployments WHERE id = $1 AND tenant_id = $2 RETURNING doc',
      [id, tenantId],
    );
    return rows[0] && (JSON.parse(rows[0].doc) as Deployment);
  }

  async listRevisions(deploymentId: string): Promise<StoredRevision[]> {
    const { rows } = await this.pool.query<RevisionRow>(
      'SELECT doc FROM cp_revisions WHERE deployment_id = $1 ORDER BY seq DESC',
      [deploymentId],
    );
    return rows.map(parseRevision);
  }

  async advanceDue(now: number, plan: ChangePlan<void>): Promise<number> {
    let changed = 0;
    for (;;) {
      const taken = await withTransaction(this.pool, async (client) => {
        const { rows } = await client.query<{ doc: string }>(
          `SELECT doc FROM cp_deployments
            WHERE id IN (SELECT deployment_id FROM cp_revisions WHERE next_transition_at <= $1)
            ORDER BY id LIMIT ${DUE_BATCH} FOR UPDATE SKIP LOCKED`,
          [now],
        );
        const deployments = rows.map((row) => JSON.parse(row.doc) as Deployment);
        const revisions = await this.revisionsOf(client, deployments.map((d) => d.id));
        for (const deployment of deployments) {
          const planned = plan(deployment, revisions.filter((r) => r.deploymentId === deployment.id));
          if (planned.change) {
            await this.write(client, planned.change, false);
            changed += 1;
          }
        }
        return deployments.length;
      });
      if (taken < DUE_BATCH) return changed;
    }
  }

  async saveUploadGrant(grant: UploadGrant): Promise<void> {
    await this.pool.query(
      'INSERT INTO cp_uploads (token, tenant_id, deployment_id, object_path, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [grant.token, grant.tenantId, grant.deploymentId, grant.objectPath, grant.expiresAt],
    );
  }

  async purgeExpiredGrants(now: number): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM cp_uploads WHERE expires_at < $1 AND tarball IS NULL', [now]);
    return rowCount ?? 0;
  }

  async findUploadGrant(token: string): Promise<UploadGrant | undefined> {
    if (!storable(token)) return undefined;
    return this.grantWhere('token = $1', [token]);
  }

  async findUploadByPath(deploymentId: string, objectPath: string): Promise<UploadGrant | undefined> {
    if (!storable(objectPath)) return undefined;
    return this.grantWhere('deployment_id = $1 AND object_path = $2', [deploymentId, objectPath]);
  }

  async storeUpload(token: string, tarball: Buffer): Promise<boolean> {
    const result = await this.pool.query('UPDATE cp_uploads SET tarball = $2 WHERE token = $1', [token, tarball]);
    return result.rowCount === 1;
  }

  async close(): Promise<void> {
    // The pool belongs to the context, which ends it.
  }

  private async grantWhere(condition: string, values: unknown[]): Promise<UploadGrant | undefined> {
    const { rows } = await this.pool.query<{
      token: string;
      tenant_id: string;
      deployment_id: string;
      object_path: string;
      expires_at: string;
      uploaded: boolean;
    }>(
      `SELECT token, tenant_id, deployment_id, object_path, expires_at, tarball IS NOT NULL AS uploaded
         FROM cp_uploads WHERE ${condition}`,
      values,
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      token: row.token,
      tenantId: row.tenant_id,
      deploymentId: row.deployment_id,
      objectPath: row.object_path,
      expiresAt: Number(row.expires_at),
      uploaded: row.uploaded,
    };
  }

  private async revisionsOf(client: PoolClient, deploymentIds: string[]): Promise<StoredRevision[]> {
    if (deploymentIds.length === 0) return [];
    const { rows } = await client.query<RevisionRow>(
      'SELECT doc FROM cp_revisions WHERE deployment_id = ANY($1) ORDER BY seq DESC',
      [deploymentIds],
    );
    return rows.map(parseRevision);
  }

  private async write(client: PoolClient, change: DeploymentChange, replaceSameSeq: boolean): Promise<void> {
    const { deployment } = change;
    await client.query('UPDATE cp_deployments SET doc = $2, name_key = $3 WHERE id = $1', [
      deployment.id,
      JSON.stringify(deployment),
      nameKey(deployment.name),
    ]);
    for (const updated of change.updatedRevisions ?? []) {
      await client.query('UPDATE cp_revisions SET doc = $2, next_transition_at = $3 WHERE id = $1', [
        updated.revision.id,
        JSON.stringify(updated),
        updated.nextTransitionAt,
      ]);
    }
    if (change.newRevision) await this.insertRevision(client, change.newRevision, replaceSameSeq);
  }

  private async insertRevision(client: PoolClient, stored: StoredRevision, replaceSameSeq: boolean): Promise<void> {
    // Replacing a revision of the same seq only happens under the lost-update fault.
    const onConflict = replaceSameSeq
      ? 'ON CONFLICT (deployment_id, seq) DO UPDATE SET id = EXCLUDED.id, doc = EXCLUDED.doc, next_transition_at = EXCLUDED.next_transition_at'
      : '';
    await client.query(
      `INSERT INTO cp_revisions (id, deployment_id, seq, next_transition_at, doc) VALUES ($1, $2, $3, $4, $5) ${onConflict}`,
      [stored.revision.id, stored.deploymentId, stored.seq, stored.nextTransitionAt, JSON.stringify(stored)],
    );
  }
}
