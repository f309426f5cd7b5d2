// Spec 2.1: active_revision_id is "the currently deployed revision", so it never names a revision
// that failed. Judged in CP-LIFE-003's test, and wherever a wait sees a revision end with a status
// containing FAILED: there without stopping the test that waited, whose own rule is another.
import type { Check, Exchange } from '../../../harness/conformance/index.ts';
import { deploymentPath, field } from './endpoints.ts';

/** How the check reads: a check that stops the test, or one that records a failure and goes on. */
type Judged = 'stop' | 'go-on';

/** Checks CP-LIFE-005: the deployment `id` does not name its failed revision `revisionId` as active. */
export async function expectFailedNotActive(t: Check, id: string, revisionId: string, status: string, judged: Judged = 'stop'): Promise<void> {
  const exchange: Exchange = await t.cp.get(deploymentPath(id));
  const active = field(exchange.response?.json, 'active_revision_id');
  const spec = {
    requirement: 'CP-LIFE-005',
    message: `Revision ${revisionId} of deployment ${id} ended with status ${status}, and the deployment names it as its active_revision_id (the currently deployed revision).`,
    expected: `active_revision_id other than ${revisionId}`,
  };
  if (judged === 'stop') t.expectOn(exchange, active !== revisionId, spec);
  else t.observeOn(exchange, active !== revisionId, spec);
}
