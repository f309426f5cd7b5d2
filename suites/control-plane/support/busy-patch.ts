// A target that refuses a revision-creating PATCH while a revision is in progress, found out while
// the run runs: the profile need not say `busyPatch: refused`. Such a refusal is the target's
// pace, not a deviation: the PATCH waits for the revision to end and goes again, and the run
// learns the answer (harness/conformance/learned.ts), so every later PATCH waits first. Only the
// concurrency rules judge the refusals themselves.
import { BUSY_DETAIL, learnBusyPatchRefused, type Check, type Exchange } from '../../../harness/conformance/index.ts';
import { isTerminal } from '../../../schemas/revision-status.ts';
import { field, is4xx, revisionPath, statusOf } from './endpoints.ts';

/** The refusal's `detail` when it says a revision is in progress (a 4xx): the answer explains itself. */
export function busyDetail(exchange: Exchange): string | undefined {
  const detail = field(exchange.response?.json, 'detail');
  return is4xx(exchange) && typeof detail === 'string' && BUSY_DETAIL.test(detail) ? detail : undefined;
}

/**
 * Whether a PATCH of deployment `id` was refused because a revision is in progress: a 4xx whose
 * detail says so, or a 409 while `latest` (the latest revision before the PATCH) has not ended.
 * When it was, the run learns it (and the first test to, says how).
 */
export async function refusedWhileBusy(t: Check, id: string, exchange: Exchange, latest: string | undefined): Promise<boolean> {
  if (!is4xx(exchange)) return false;
  const detail = busyDetail(exchange);
  let why = detail !== undefined ? `answered ${statusOf(exchange)} (${detail})` : undefined;
  if (why === undefined && statusOf(exchange) === 409 && latest !== undefined) {
    const status = field((await t.cp.get(revisionPath(id, latest))).response?.json, 'status');
    if (typeof status === 'string' && !isTerminal(status)) why = `answered 409 while revision ${latest} was ${status}`;
  }
  if (why === undefined) return false;
  learnBusyPatchRefused(t.run, `a revision-creating PATCH ${why}`);
  return true;
}
