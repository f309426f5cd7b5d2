// Spec 2.1: active_revision_id is "the currently deployed revision", so it never names a revision
// that failed. Checked wherever a wait sees a revision end with a status containing FAILED.
import { describeResponse, type Check } from '../../../harness/conformance/index.ts';
import { deploymentPath, field } from './endpoints.ts';

/**
 * Checks CP-LIFE-005: the deployment `id` does not name its failed revision `revisionId` as active.
 * `observe` holds a failure back to the end of the test (Check.observe), so a test that judged
 * another rule first on the same deployment still reports that rule as judged.
 */
export async function expectFailedNotActive(t: Check, id: string, revisionId: string, status: string, how: 'expect' | 'observe' = 'expect'): Promise<void> {
  const exchange = await t.cp.get(deploymentPath(id));
  const active = field(exchange.response?.json, 'active_revision_id');
  const spec = {
    requirement: 'CP-LIFE-005',
    message: `Revision ${revisionId} of deployment ${id} ended with status ${status}, and the deployment names it as its active_revision_id (the currently deployed revision).`,
    expected: `active_revision_id other than ${revisionId}`,
  };
  if (how === 'observe') t.observe(active !== revisionId, { ...spec, seen: describeResponse(exchange) });
  else t.expectOn(exchange, active !== revisionId, spec);
}
