// What every control-plane route uses: the context, the store, the fault switches and the tenant
// of a request.
import type { FastifyRequest } from 'fastify';
import { tenantOf } from '../auth.ts';
import type { ReferenceContext } from '../context.ts';
import { notFound } from '../http-errors.ts';
import type { PendingDeletions } from '../platform-like/async-delete.ts';
import type { ChangeContext } from './deployment-create.ts';
import type { FaultCheck } from './faults.ts';
import type { Deployment } from './records.ts';
import type { ControlPlaneStore } from './store.ts';

export interface RouteDeps {
  ctx: ReferenceContext;
  store: ControlPlaneStore;
  faults: FaultCheck;
  /** Path prefix the routes are served under ('' when hosted). */
  prefix: string;
  changeContext: ChangeContext;
  /** Deletions under way (platform-like async-delete); absent when DELETE deletes at once. */
  pendingDeletions?: PendingDeletions;
}

export function makeChangeContext(ctx: ReferenceContext, faults: FaultCheck): ChangeContext {
  let last = 0;
  return {
    mode: ctx.mode,
    faults,
    phaseMs: ctx.phaseMs,
    refuseWhileBusy: ctx.platformLike.has('busy-deployments'),
    // Strictly increasing within a process, so revisions of one deployment never share a timestamp.
    clock: () => {
      last = Math.max(Date.now(), last + 1);
      return last;
    },
  };
}

/** The tenant the request acts for: 401 without a valid key, 403 for a tenant the key may not use. */
export function tenantOfRequest(deps: RouteDeps, request: FastifyRequest): string {
  if (deps.faults('cp.no-auth')) {
    // FAULT cp.no-auth: any key, or none, is accepted.
    const requested = request.headers['x-tenant-id'];
    return (typeof requested === 'string' && requested) || deps.ctx.auth.grants[0]!.tenants[0]!;
  }
  return tenantOf(deps.ctx.auth, request);
}

export const deploymentNotFound = (id: string) => notFound(`Deployment ID ${id} not found.`);

/** The tenant's deployment, or the spec's 404. */
export async function requireDeployment(deps: RouteDeps, tenantId: string, id: string): Promise<Deployment> {
  // FAULT cp.tenant-leak: reads ignore the tenant.
  const deployment = await deps.store.findDeployment(deps.faults('cp.tenant-leak') ? undefined : tenantId, id);
  if (!deployment) throw deploymentNotFound(id);
  return deployment;
}
