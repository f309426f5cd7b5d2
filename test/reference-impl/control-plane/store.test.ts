// The two store backends behave the same: tenancy, name uniqueness, serialized changes, due
// revisions advanced exactly once (also by two stores sharing one PostgreSQL database), uploads.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPool, type Pool } from '../../../reference-impl/db.ts';
import { MemoryStore } from '../../../reference-impl/control-plane/memory-store.ts';
import { PostgresStore } from '../../../reference-impl/control-plane/pg-store.ts';
import type { Deployment, StoredRevision } from '../../../reference-impl/control-plane/records.ts';
import { planProgress, startRevision } from '../../../reference-impl/control-plane/revision-lifecycle.ts';
import type { ChangePlan, ControlPlaneStore } from '../../../reference-impl/control-plane/store.ts';
import { BACKENDS, databaseFor, type Backend } from '../../support/reference-listener.ts';

const noFaults = { faults: () => false };

function newDeployment(tenantId: string, name = `store-${randomUUID()}`): { deployment: Deployment; first: StoredRevision } {
  const id = randomUUID();
  const first = startRevision({ id: randomUUID(), deploymentId: id, seq: 1, source: 'internal_container', config: { image_uri: 'img' }, tarballMissing: false, now: Date.now(), phaseMs: 5 });
  const at = new Date().toISOString();
  return {
    first,
    deployment: {
      id,
      tenant_id: tenantId,
      name,
      source: 'internal_container',
      source_config: {},
      source_revision_config: first.revision.source_revision_config,
      secrets: [],
      created_at: at,
      updated_at: at,
      status: 'AWAITING_DATABASE',
      latest_revision_id: first.revision.id,
      active_revision_id: null,
    },
  };
}

/** A change that adds one revision after the newest, as a PATCH does. */
const addRevision: ChangePlan<string> = (current, revisions) => {
  const next = startRevision({
    id: randomUUID(),
    deploymentId: current.id,
    seq: revisions[0]!.seq + 1,
    source: 'internal_container',
    config: { image_uri: `img:${revisions.length + 1}` },
    tarballMissing: false,
    now: Date.now(),
    phaseMs: 5,
  });
  return { change: { deployment: { ...current, latest_revision_id: next.revision.id }, newRevision: next }, result: next.revision.id };
};

describe.each(BACKENDS)('control-plane store on %s', (backend: Backend) => {
  let database: Awaited<ReturnType<typeof databaseFor>>;
  const pools: Pool[] = [];
  let store: ControlPlaneStore;
  const open = async (): Promise<ControlPlaneStore> => {
    if (backend === 'memory') return new MemoryStore(noFaults);
    const pool = openPool(database.url!);
    pools.push(pool);
    return PostgresStore.open(pool, noFaults);
  };

  beforeAll(async () => {
    database = await databaseFor(backend);
    store = await open();
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await database.drop();
  });

  it('keeps tenants apart and refuses a second deployment of one name in a tenant', async () => {
    const tenant = randomUUID();
    const { deployment, first } = newDeployment(tenant);
    expect(await store.createDeployment(deployment, first)).toBe('created');
    const again = newDeployment(tenant, deployment.name);
    expect(await store.createDeployment(again.deployment, again.first)).toBe('name-taken');
    const elsewhere = newDeployment(randomUUID(), deployment.name);
    expect(await store.createDeployment(elsewhere.deployment, elsewhere.first)).toBe('created');
    expect(await store.findDeployment(tenant, deployment.id)).toEqual(deployment);
    expect(await store.findDeployment(randomUUID(), deployment.id)).toBeUndefined();
    expect((await store.listDeployments(tenant)).map((d) => d.id)).toEqual([deployment.id]);
  });

  it('stores values PostgreSQL text cannot hold as such (NUL) and names longer than an index entry', async () => {
    const tenant = randomUUID();
    const { deployment, first } = newDeployment(tenant, `nul\u0000${'n'.repeat(10_000)}`);
    deployment.secrets = [{ name: 'S', value: 'a\u0000b\ud800' }];
    expect(await store.createDeployment(deployment, first)).toBe('created');
    const found = await store.findDeployment(tenant, deployment.id);
    expect(found?.name).toBe(deployment.name);
    expect(found?.secrets[0]?.value).toBe('a\u0000b\ud800');
  });

  it('serializes concurrent changes of one deployment: ten at once add ten revisions', async () => {
    const tenant = randomUUID();
    const { deployment, first } = newDeployment(tenant);
    await store.createDeployment(deployment, first);
    const results = await Promise.all(Array.from({ length: 10 }, () => store.changeDeployment(tenant, deployment.id, addRevision)));
    const revisions = await store.listRevisions(deployment.id);
    expect(revisions.map((r) => r.seq)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(new Set(results.map((r) => r?.result)).size).toBe(10);
    expect((await store.findDeployment(tenant, deployment.id))?.latest_revision_id).toBe(revisions[0]!.revision.id);
  });

  it('writes nothing when a plan throws', async () => {
    const tenant = randomUUID();
    const { deployment, first } = newDeployment(tenant);
    await store.createDeployment(deployment, first);
    const failing: ChangePlan<void> = () => {
      throw new Error('refused');
    };
    await expect(store.changeDeployment(tenant, deployment.id, failing)).rejects.toThrow('refused');
    expect(await store.findDeployment(tenant, deployment.id)).toEqual(deployment);
    expect(await store.listRevisions(deployment.id)).toHaveLength(1);
  });

  it('answers undefined for a change or delete of another tenant’s deployment, and changes nothing', async () => {
    const tenant = randomUUID();
    const { deployment, first } = newDeployment(tenant);
    await store.createDeployment(deployment, first);
    expect(await store.changeDeployment(randomUUID(), deployment.id, addRevision)).toBeUndefined();
    expect(await store.deleteDeployment(randomUUID(), deployment.id)).toBeUndefined();
    expect(await store.listRevisions(deployment.id)).toHaveLength(1);
  });

  it('advances due revisions to DEPLOYED and deletes a deployment with its revisions and uploads', async () => {
    const tenant = randomUUID();
    const { deployment, first } = newDeployment(tenant);
    await store.createDeployment(deployment, first);
    await store.saveUploadGrant({ token: `t-${randomUUID()}`, tenantId: tenant, deploymentId: deployment.id, objectPath: 'p/1.tar.gz', expiresAt: Date.now() + 60_000, uploaded: false });
    for (let step = 0; step < 10; step += 1) {
      const now = Date.now() + 1000 * (step + 1);
      await store.advanceDue(now, planProgress({ now, phaseMs: 5, faults: () => false }));
    }
    const [revision] = await store.listRevisions(deployment.id);
    expect(revision?.revision.status).toBe('DEPLOYED');
    expect((await store.findDeployment(tenant, deployment.id))?.active_revision_id).toBe(revision?.revision.id);
    expect(await store.deleteDeployment(tenant, deployment.id)).toMatchObject({ id: deployment.id });
    expect(await store.findDeployment(tenant, deployment.id)).toBeUndefined();
    expect(await store.listRevisions(deployment.id)).toEqual([]);
    expect(await store.findUploadByPath(deployment.id, 'p/1.tar.gz')).toBeUndefined();
  });

  it('records upload grants and their tarballs', async () => {
    const tenant = randomUUID();
    const { deployment, first } = newDeployment(tenant);
    await store.createDeployment(deployment, first);
    const token = `t-${randomUUID()}`;
    await store.saveUploadGrant({ token, tenantId: tenant, deploymentId: deployment.id, objectPath: 'p/2.tar.gz', expiresAt: 123, uploaded: false });
    expect(await store.findUploadGrant(token)).toMatchObject({ deploymentId: deployment.id, objectPath: 'p/2.tar.gz', expiresAt: 123, uploaded: false });
    expect(await store.storeUpload(token, Buffer.from([0x1f, 0x8b, 1]))).toBe(true);
    expect(await store.findUploadByPath(deployment.id, 'p/2.tar.gz')).toMatchObject({ uploaded: true });
    expect(await store.findUploadByPath(deployment.id, 'p/\u00002.tar.gz')).toBeUndefined();
    expect(await store.storeUpload(`t-${randomUUID()}`, Buffer.from([1]))).toBe(false);
  });

  it.skipIf(backend === 'memory')('two stores on one database advance each revision exactly once (PostgreSQL only: an in-memory store cannot be shared)', async () => {
    const other = await open();
    const tenant = randomUUID();
    const created = await Promise.all(Array.from({ length: 8 }, () => newDeployment(tenant)));
    for (const { deployment, first } of created) await store.createDeployment(deployment, first);
    const transitions = new Map<string, string[]>();
    const recording = (now: number): ChangePlan<void> => {
      const plan = planProgress({ now, phaseMs: 5, faults: () => false });
      return (current, revisions) => {
        const planned = plan(current, revisions);
        for (const r of planned.change?.updatedRevisions ?? []) {
          transitions.set(r.revision.id, [...(transitions.get(r.revision.id) ?? []), r.revision.status]);
        }
        return planned;
      };
    };
    for (let step = 0; step < 8; step += 1) {
      const now = Date.now() + 1000 * (step + 1);
      await Promise.all([store.advanceDue(now, recording(now)), other.advanceDue(now, recording(now))]);
    }
    for (const { first } of created) {
      expect(transitions.get(first.revision.id)).toEqual(['QUEUED', 'AWAITING_BUILD', 'BUILDING', 'AWAITING_DEPLOY', 'DEPLOYING', 'DEPLOYED']);
    }
  });
});
