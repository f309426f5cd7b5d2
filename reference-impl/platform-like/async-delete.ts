// `async-delete`: DELETE answers 204 and the deployment stays readable and listed, with status
// AWAITING_DELETE (a value of the spec's enum), until it goes away a while later. Revisions still
// in progress end INTERRUPTED, so nothing turns the deployment READY again. Pending deletions live
// in the process: a restart leaves the deployment AWAITING_DELETE.
import { conflict } from '../http-errors.ts';
import type { Deployment, DeploymentChange } from '../control-plane/records.ts';
import { TERMINAL_STATUSES } from '../control-plane/revision-lifecycle.ts';
import type { ChangePlan, ControlPlaneStore } from '../control-plane/store.ts';

export const AWAITING_DELETE = 'AWAITING_DELETE';

/** Marks the deployment as being deleted; its result is the deployment as it was. */
export function planAwaitingDelete(now: number): ChangePlan<Deployment> {
  return (current, revisions) => {
    if (current.status === AWAITING_DELETE) return { result: current };
    const at = new Date(now).toISOString();
    const updatedRevisions = revisions
      .filter((r) => !TERMINAL_STATUSES.has(r.revision.status))
      .map((r) => ({ ...r, nextTransitionAt: null, revision: { ...r.revision, status: 'INTERRUPTED', updated_at: at } }));
    const change: DeploymentChange = { deployment: { ...current, status: AWAITING_DELETE, updated_at: at }, updatedRevisions };
    return { change, result: current };
  };
}

/** A deployment being deleted takes no more changes. */
export function assertNotDeleting(current: Deployment): void {
  if (current.status === AWAITING_DELETE) throw conflict('The deployment is being deleted.');
}

export interface PendingDeletions {
  /** Deletes the deployment once `lingerMs` have passed. */
  schedule(tenantId: string, id: string): void;
  /** Stops the timers; what is pending stays AWAITING_DELETE. */
  stop(): void;
}

export function pendingDeletions(store: ControlPlaneStore, lingerMs: number, onError: (error: unknown) => void): PendingDeletions {
  const timers = new Map<string, NodeJS.Timeout>();
  return {
    schedule(tenantId, id) {
      if (timers.has(id)) return;
      const timer = setTimeout(() => {
        timers.delete(id);
        store.deleteDeployment(tenantId, id).catch(onError);
      }, lingerMs);
      timer.unref();
      timers.set(id, timer);
    },
    stop() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
