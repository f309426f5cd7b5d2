// Deleting deployments. Deletion may be asynchronous (the deployment status enum names
// AWAITING_DELETE, spec 3): after DELETE the deployment may still be read and listed with that
// status for a while. What a deleted deployment must not do is stay READY (or any other status),
// or stay at all past the profile's deletion bound (timeouts.deleteMs, else the deploy timeout).
// The wait itself is harness/run/awaiting-delete.ts, shared with `apc cleanup`.
import { type Check, type Exchange, describeResponse, AWAITING_DELETE, deleteBoundMs as boundOf, untilGone as waitUntilGone, type Gone } from '../../../harness/conformance/index.ts';
import { DEPLOYMENTS, deploymentPath, field, is2xx, is4xx, statusOf } from './endpoints.ts';

/** How long a deleted deployment may take to go away. */
export const deleteBoundMs = (t: Check): number => boundOf(t.profile);

/** Waits until the deleted deployment is gone (harness/run/awaiting-delete.ts); judges nothing itself. */
export const untilGone = (t: Check, id: string): Promise<Gone> => waitUntilGone(t.cp, id, deleteBoundMs(t), t.profile.pollIntervalMs);

/**
 * The deployment in a listing (with `query`), once any AWAITING_DELETE entry of it has gone, up
 * to the deletion bound: undefined when the listing no longer shows it, else the listing.
 */
export async function stillListed(t: Check, id: string, query: Record<string, string>): Promise<Exchange | undefined> {
  const deadline = Date.now() + deleteBoundMs(t);
  for (;;) {
    const listing = await t.cp.get(DEPLOYMENTS, { query });
    if (!listing.response?.text.includes(id)) return undefined;
    const resources = field(listing.response.json, 'resources');
    const entry = (Array.isArray(resources) ? resources : Array.isArray(listing.response.json) ? (listing.response.json as unknown[]) : []).find((d) => field(d, 'id') === id);
    if (field(entry, 'status') !== AWAITING_DELETE || Date.now() + t.profile.pollIntervalMs > deadline) return listing;
    await new Promise((resolve) => setTimeout(resolve, t.profile.pollIntervalMs));
  }
}

/**
 * DELETE of a deployment and its tracing project (field notes: delete_tracing_project=true), so
 * a name can be created again. A target that refuses the query is asked plainly.
 */
export async function deleteWithProject(t: Check, id: string): Promise<Exchange> {
  const answer = await t.cp.delete(deploymentPath(id), { query: { delete_tracing_project: true } });
  return is4xx(answer) && statusOf(answer) !== 404 ? t.cp.delete(deploymentPath(id)) : answer;
}

/**
 * Deletes a deployment at the end of the test and waits until it is gone, so the run leaves
 * nothing behind (its tracing project included). A deployment already on its way (a refused
 * second DELETE while it is AWAITING_DELETE) is waited for the same way.
 */
export function registerDeletion(t: Check, id: string): void {
  t.cleanup(`DELETE ${deploymentPath(id)}`, async () => {
    const answer = await deleteWithProject(t, id);
    if (statusOf(answer) === 404) return;
    if (!is2xx(answer)) {
      const read = await t.cp.get(deploymentPath(id));
      if (is4xx(read)) return;
      if (field(read.response?.json, 'status') !== AWAITING_DELETE) throw new Error(`could not delete deployment ${id}: ${describeResponse(answer)}`);
    }
    const gone = await untilGone(t, id);
    if (!gone.gone) throw new Error(`deleted deployment ${id} did not go away: ${gone.why}`);
  }, { alongside: true });
}
