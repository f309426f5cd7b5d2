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

/**
 * Reads a deleted deployment until its GET is refused (a 4xx): gone. While it answers 200 with
 * AWAITING_DELETE it is on its way; any other status after DELETE, or `boundMs` passing, is not
 * gone, and says why. Judges nothing itself.
 */
export async function untilGone(cp: InterfaceClient, id: string, boundMs: number, intervalMs: number): Promise<Gone> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const read = await cp.get(`/v2/deployments/${id}`);
    const status = read.response?.status ?? 0;
    if (status >= 400 && status < 500) return { gone: true, read };
    if (status === 200 && statusIn(read) !== AWAITING_DELETE) {
      return { gone: false, read, why: `After DELETE answered, deployment ${id} is still there with status ${JSON.stringify(statusIn(read))}; a deleted deployment may only show ${AWAITING_DELETE} until it is gone.` };
    }
    if (Date.now() + intervalMs > deadline) {
      return { gone: false, read, why: `Deployment ${id} was not gone ${boundMs} ms after DELETE answered (timeouts.deleteMs, else the deploy timeout); its GET last answered ${describeResponse(read)}.` };
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Whether a deployment is on its way out: its GET answers AWAITING_DELETE. */
export async function awaitingDelete(cp: InterfaceClient, id: string): Promise<boolean> {
  return statusIn(await cp.get(`/v2/deployments/${id}`)) === AWAITING_DELETE;
}
