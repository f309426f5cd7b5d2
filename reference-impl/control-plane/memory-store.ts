// In-memory backend of the control-plane store. Values are copied in and out, so a caller can
// never change stored state except through the store; changes of one deployment run one at a
// time behind a per-deployment mutex.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Deployment, DeploymentChange, StoredRevision, UploadGrant } from './records.ts';
import type { ChangePlan, ControlPlaneStore, CreateCompanion, CreateOutcome, StoreOptions } from './store.ts';

const copy = <T>(value: T): T => structuredClone(value);
const nameKey = (d: Pick<Deployment, 'tenant_id' | 'name'>) => `${d.tenant_id}\0${d.name}`;
const inProgress = (revisions: StoredRevision[]) => revisions.some((r) => r.nextTransitionAt !== null);

export class MemoryStore implements ControlPlaneStore {
  private readonly deployments = new Map<string, Deployment>();
  /** Revisions per deployment id, newest first. */
  private readonly revisions = new Map<string, StoredRevision[]>();
  private readonly grants = new Map<string, UploadGrant>();
  private readonly tarballs = new Map<string, Buffer>();
  private readonly locks = new Map<string, Promise<void>>();
  // Indexes, so that a create and a progress round cost the same with 100,000 deployments as with 10.
  /** Deployment id by tenant and name. */
  private readonly names = new Map<string, string>();
  /** Deployments with a revision still moving through its phases. */
  private readonly moving = new Set<string>();

  constructor(private readonly options: StoreOptions) {}

  async createDeployment(deployment: Deployment, firstRevision: StoredRevision, companion?: CreateCompanion): Promise<CreateOutcome> {
    if (this.names.has(nameKey(deployment))) return 'name-taken';
    // Nothing is written before the companion succeeds; a create of the same name that got in
    // meanwhile would have been refused by the companion's own name check.
    await companion?.(undefined);
    if (this.names.has(nameKey(deployment))) return 'name-taken';
    this.names.set(nameKey(deployment), deployment.id);
    this.deployments.set(deployment.id, copy(deployment));
    this.revisions.set(deployment.id, [copy(firstRevision)]);
    if (inProgress([firstRevision])) this.moving.add(deployment.id);
    return 'created';
  }

  async findDeployment(tenantId: string | undefined, id: string): Promise<Deployment | undefined> {
    const found = this.deployments.get(id);
    if (!found || (tenantId !== undefined && found.tenant_id !== tenantId)) return undefined;
    return copy(found);
  }

  async hasDeploymentNamed(tenantId: string, name: string): Promise<boolean> {
    return this.names.has(nameKey({ tenant_id: tenantId, name }));
  }

  async listDeployments(tenantId: string, select = (all: Deployment[]) => all): Promise<Deployment[]> {
    return select([...this.deployments.values()].filter((d) => d.tenant_id === tenantId)).map(copy);
  }

  async changeDeployment<T>(tenantId: string, id: string, plan: ChangePlan<T>): Promise<{ result: T } | undefined> {
    if (this.options.faults('cp.patch-lost-under-concurrency')) {
      // FAULT cp.patch-lost-under-concurrency: read, yield to other requests, write what was read.
      const current = await this.findDeployment(tenantId, id);
      if (!current) return undefined;
      const revisions = this.revisionsOf(id);
      await sleep(5);
      const planned = plan(current, revisions);
      if (planned.change) this.write(planned.change, { replaceSameSeq: true });
      return { result: planned.result };
    }
    return this.withLock(id, async () => {
      const current = await this.findDeployment(tenantId, id);
      if (!current) return undefined;
      const planned = plan(current, this.revisionsOf(id));
      if (planned.change) this.write(planned.change, { replaceSameSeq: false });
      return { result: planned.result };
    });
  }

  async deleteDeployment(tenantId: string, id: string): Promise<Deployment | undefined> {
    return this.withLock(id, async () => {
      const found = await this.findDeployment(tenantId, id);
      if (!found) return undefined;
      this.deployments.delete(id);
      this.revisions.delete(id);
      this.names.delete(nameKey(found));
      this.moving.delete(id);
      for (const [token, grant] of this.grants) {
        if (grant.deploymentId === id) {
          this.grants.delete(token);
          this.tarballs.delete(token);
        }
      }
      return found;
    });
  }

  async listRevisions(deploymentId: string): Promise<StoredRevision[]> {
    return this.revisionsOf(deploymentId);
  }

  async advanceDue(now: number, plan: ChangePlan<void>): Promise<number> {
    const due = [...this.moving].filter((id) => this.revisions.get(id)?.some((r) => r.nextTransitionAt !== null && r.nextTransitionAt <= now));
    let changed = 0;
    for (const deploymentId of due) {
      await this.withLock(deploymentId, async () => {
        const current = this.deployments.get(deploymentId);
        if (!current) return;
        const planned = plan(copy(current), this.revisionsOf(deploymentId));
        if (planned.change) {
          this.write(planned.change, { replaceSameSeq: false });
          changed += 1;
        }
      });
    }
    return changed;
  }

  async saveUploadGrant(grant: UploadGrant): Promise<void> {
    this.grants.set(grant.token, copy(grant));
  }

  async purgeExpiredGrants(now: number): Promise<number> {
    let purged = 0;
    for (const [token, grant] of this.grants) {
      if (grant.expiresAt < now && !grant.uploaded) {
        this.grants.delete(token);
        purged += 1;
      }
    }
    return purged;
  }

  async findUploadGrant(token: string): Promise<UploadGrant | undefined> {
    const grant = this.grants.get(token);
    return grant && copy(grant);
  }

  async findUploadByPath(deploymentId: string, objectPath: string): Promise<UploadGrant | undefined> {
    for (const grant of this.grants.values()) {
      if (grant.deploymentId === deploymentId && grant.objectPath === objectPath) return copy(grant);
    }
    return undefined;
  }

  async storeUpload(token: string, tarball: Buffer): Promise<boolean> {
    const grant = this.grants.get(token);
    if (!grant) return false;
    this.tarballs.set(token, Buffer.from(tarball));
    grant.uploaded = true;
    return true;
  }

  async close(): Promise<void> {
    await Promise.all(this.locks.values());
  }

  private revisionsOf(deploymentId: string): StoredRevision[] {
    return (this.revisions.get(deploymentId) ?? []).map(copy);
  }

  private write(change: DeploymentChange, how: { replaceSameSeq: boolean }): void {
    const id = change.deployment.id;
    const before = this.deployments.get(id);
    if (before) this.names.delete(nameKey(before));
    this.names.set(nameKey(change.deployment), id);
    this.deployments.set(id, copy(change.deployment));
    let revisions = this.revisions.get(id) ?? [];
    for (const updated of change.updatedRevisions ?? []) {
      revisions = revisions.map((r) => (r.revision.id === updated.revision.id ? copy(updated) : r));
    }
    if (change.newRevision) {
      const added = change.newRevision;
      // Only reachable under the lost-update fault: a stale read picked a `seq` already taken.
      if (how.replaceSameSeq) revisions = revisions.filter((r) => r.seq !== added.seq);
      revisions = [copy(added), ...revisions].sort((a, b) => b.seq - a.seq);
    }
    this.revisions.set(id, revisions);
    if (inProgress(revisions)) this.moving.add(id);
    else this.moving.delete(id);
  }

  private async withLock<T>(deploymentId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(deploymentId) ?? Promise.resolve();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => held);
    this.locks.set(deploymentId, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.locks.get(deploymentId) === tail) this.locks.delete(deploymentId);
    }
  }
}
