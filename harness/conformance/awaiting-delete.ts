// Deletion may be asynchronous (the deployment status enum has AWAITING_DELETE, spec 3): after
// DELETE answers, the deployment may still be read with that status for a while. The one wait for
// a deleted deployment to go away, used by the suites (CP-DEL-002, every test's cleanup) and by
// `apc cleanup`.
import type { InterfaceClient } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { describeResponse } from '../http/curl.ts';
import type { TargetProfile } from '../profile/profile.ts';

/** The one status a deleted deployment may show until it is gone. */
export const AWAITING_DELETE = 'AWAITING_DELETE';

/** How long a deleted deployment may take to go away: timeouts.deleteMs, else the deploy timeout. */
export const deleteBoundMs = (profile: TargetProfile): number => profile.timeouts.deleteMs ?? profile.timeouts.deployMs;

export type Gone =
  | { gone: true; /** The read that was refused. */ read: Exchange }
  | { gone: false; why: string; read: Exchange };

const statusIn = (read: Exchange): unknown => {
  const json = read.response?.json;
  return typeof json === 'object' && json !== null ? (json as Record<string, unknown>).status : undefined;
};

/** Reads in a row that failed (a 5xx, or no answer) after which the target is not waited on further. */
export const FAILED_READS_IN_A_ROW = 6;
/** The first pause after a failed read: it says nothing of the deletion, so it is tried again soon. */
const RETRY_AFTER_FAILED_READ_MS = 1_000;

/** The pause after the `failed`-th failed read in a row: 1, 1, 2, 4, 8 s (at most the poll interval). */
const pauseAfterFailedRead = (failed: number, intervalMs: number): number => Math.min(intervalMs, RETRY_AFTER_FAILED_READ_MS * 2 ** Math.max(0, failed - 2));

/**
 * Reads a deleted deployment until its GET is refused (a 4xx): gone. While it answers 200 with
 * AWAITING_DELETE it is on its way, read again after `intervalMs`; any other status after
 * DELETE, `boundMs` passing, or FAILED_READS_IN_A_ROW failed reads is not gone, and says why.
 * A failed read is tried again within a second, then less and less often: waiting a poll
 * interval after each transient 500 made a run's cleanup against a flaky target take minutes,
 * while a real platform's short spell of errors (16 s of them) must not end the wait. Judges
 * nothing itself.
 */
export async function untilGone(cp: InterfaceClient, id: string, boundMs: number, intervalMs: number): Promise<Gone> {
  const deadline = Date.now() + boundMs;
  let failedInARow = 0;
  for (;;) {
    const read = await cp.get(`/v2/deployments/${id}`);
    const status = read.response?.status ?? 0;
    if (status >= 400 && status < 500) return { gone: true, read };
    if (status === 200 && statusIn(read) !== AWAITING_DELETE) {
      return { gone: false, read, why: `After DELETE answered, deployment ${id} is still there with status ${JSON.stringify(statusIn(read))}; a deleted deployment may only show ${AWAITING_DELETE} until it is gone.` };
    }
    failedInARow = status === 200 ? 0 : failedInARow + 1;
    if (failedInARow >= FAILED_READS_IN_A_ROW) {
      return { gone: false, read, why: `After DELETE answered, the GET of deployment ${id} failed ${failedInARow} times in a row (last: ${describeResponse(read)}), so whether it went away could not be seen.` };
    }
    const pause = failedInARow > 0 ? pauseAfterFailedRead(failedInARow, intervalMs) : intervalMs;
    if (Date.now() + pause > deadline) {
      return { gone: false, read, why: `Deployment ${id} was not gone ${boundMs} ms after DELETE answered (timeouts.deleteMs, else the deploy timeout); its GET last answered ${describeResponse(read)}.` };
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Whether a deployment is on its way out: its GET answers AWAITING_DELETE. */
export async function awaitingDelete(cp: InterfaceClient, id: string): Promise<boolean> {
  return statusIn(await cp.get(`/v2/deployments/${id}`)) === AWAITING_DELETE;
}
