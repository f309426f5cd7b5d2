// `busy-deployments`: a revision-creating PATCH is refused while the deployment's latest revision
// is still in progress, as the platform's own docs say (its client waits for DEPLOYED first).
import { conflict } from '../http-errors.ts';
import type { StoredRevision } from '../control-plane/records.ts';
import { TERMINAL_STATUSES } from '../control-plane/revision-lifecycle.ts';

export const REVISION_IN_PROGRESS = 'A revision is already in progress for this deployment.';

/** 409 when `latest` (the newest revision) has not reached a terminal status. */
export function assertNotBusy(latest: StoredRevision | undefined): void {
  if (latest && !TERMINAL_STATUSES.has(latest.revision.status)) throw conflict(REVISION_IN_PROGRESS);
}
