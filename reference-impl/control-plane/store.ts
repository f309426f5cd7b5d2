// The control plane's storage (store-factory.ts opens one). Two backends behave the same: memory
// (the default) and PostgreSQL (when the context has a pool). Every change of one deployment is
// serialized (a per-deployment mutex in memory, a row lock in PostgreSQL), so concurrent changes
// never lose one another.
import type { PoolClient } from '../db.ts';
import type { FaultCheck } from './faults.ts';
import type { Deployment, DeploymentChange, StoredRevision, UploadGrant } from './records.ts';

/** Decides what a change does, given the deployment and all its revisions (newest first). */
export type ChangePlan<T> = (
  current: Deployment,
  revisions: StoredRevision[],
) => { change: DeploymentChange; result: T } | { change?: undefined; result: T };

export type CreateOutcome = 'created' | 'name-taken';

/**
 * Work that succeeds or fails with a create (the deployment's tracing project): on PostgreSQL it
 * runs in the create's transaction (`tx`), so a failure anywhere leaves nothing behind.
 */
export type CreateCompanion = (tx: PoolClient | undefined) => Promise<void>;

export interface ControlPlaneStore {
  /**
   * Inserts a deployment with its first revision and runs `companion`, all or nothing, unless the
   * tenant has a deployment of that name.
   */
  createDeployment(deployment: Deployment, firstRevision: StoredRevision, companion?: CreateCompanion): Promise<CreateOutcome>;
  /** The deployment when it belongs to `tenantId` (any tenant when `tenantId` is undefined). */
  findDeployment(tenantId: string | undefined, id: string): Promise<Deployment | undefined>;
  /** Whether the tenant has a deployment of exactly this name. */
  hasDeploymentNamed(tenantId: string, name: string): Promise<boolean>;
  /**
   * The tenant's deployments that `select` keeps (filtering and paging, listing.ts); by default
   * all. The memory store copies out only what `select` returns.
   */
  listDeployments(tenantId: string, select?: (all: Deployment[]) => Deployment[]): Promise<Deployment[]>;
  /**
   * Runs `plan` on the deployment with no other change of it in between, then writes the change
   * it returns. Undefined when the tenant has no such deployment.
   */
  changeDeployment<T>(tenantId: string, id: string, plan: ChangePlan<T>): Promise<{ result: T } | undefined>;
  /** Deletes the deployment with its revisions and uploads; the deleted deployment, or undefined. */
  deleteDeployment(tenantId: string, id: string): Promise<Deployment | undefined>;
  /** Revisions of a deployment, newest first. */
  listRevisions(deploymentId: string): Promise<StoredRevision[]>;
  /**
   * For each deployment with a revision due at `now` (that no other process is handling), runs
   * `plan` under the deployment's lock and writes its change. Returns how many were changed.
   */
  advanceDue(now: number, plan: ChangePlan<void>): Promise<number>;
  saveUploadGrant(grant: UploadGrant): Promise<void>;
  /** Deletes the grants that expired before `now` unused (no tarball arrived); returns how many. */
  purgeExpiredGrants(now: number): Promise<number>;
  findUploadGrant(token: string): Promise<UploadGrant | undefined>;
  findUploadByPath(deploymentId: string, objectPath: string): Promise<UploadGrant | undefined>;
  /** Stores the tarball of a grant; false when the grant is gone (its deployment was deleted). */
  storeUpload(token: string, tarball: Buffer): Promise<boolean>;
  close(): Promise<void>;
}

export interface StoreOptions {
  faults: FaultCheck;
}
