// The one poll loop of the control-plane suites: waiting for a revision to end, as the documented
// client does (poll its GET until DEPLOYED, stop on a status containing FAILED), and waiting
// until a deployment is idle before a revision-creating PATCH. A real platform's builds take
// minutes and do get stuck, so the loop ends as soon as it can judge: a status outside the known
// values ends it at once (it can never be interpreted), a revision that never ends fails its rule
// when the deploy timeout passes, and either way the run gets its report.
import { describeResponse, type Check } from '../../../harness/conformance/index.ts';
import { isFailed, isTerminal, REVISION_STATUSES } from '../../../schemas/revision-status.ts';
import { expectFailedNotActive } from './failed-not-active.ts';
import { deploymentPath, field, revisionPath, statusOf } from './endpoints.ts';

export { isFailed, isTerminal, REVISION_STATUSES } from '../../../schemas/revision-status.ts';

/** The rules whose tests make a revision fail on purpose, and judge it in their own order. */
const FAILING_IMAGE_RULES = ['CP-LIFE-003', 'CP-LIFE-005'];

/** Answers other than 200 in a row before a revision's GET is taken as refused (a real platform may lag a moment). */
const MISSES_ALLOWED = 3;

/**
 * Polls GET .../revisions/{revision_id} until the revision ends, and returns its last status.
 * `requirement` is the rule that fails when the deploy timeout passes first. A status outside the
 * known values fails CP-REVL-009 at once and blocks `requirement`; a revision its GET keeps
 * refusing blocks it by CP-REVL-004. `until`, asked after each status read while the revision is
 * in progress, ends the wait early when it holds (the status returned is then not an ended one).
 * A revision that failed is checked not to be the deployment's active revision (CP-LIFE-005,
 * recorded under that rule without stopping this test).
 */
export async function waitForRevision(
  t: Check,
  id: string,
  revisionId: string,
  requirement = 'CP-LIFE-001',
  until?: (status: string) => boolean | Promise<boolean>,
): Promise<string> {
  const timeoutMs = t.profile.timeouts.deployMs;
  const deadline = Date.now() + timeoutMs;
  let misses = 0;
  let last: unknown;
  for (;;) {
    const exchange = await t.cp.get(revisionPath(id, revisionId));
    if (statusOf(exchange) === 200) {
      misses = 0;
      last = field(exchange.response?.json, 'status');
      // A status that can never be read as ended or in progress breaks the rule on revision statuses
      // now, not at the deploy timeout; the waiting rule is then blocked by it (one fault, one rule).
      t.needOn(exchange, typeof last === 'string' && REVISION_STATUSES.includes(last), {
        requirement: 'CP-REVL-009',
        message: `Revision ${revisionId} of deployment ${id} has status ${JSON.stringify(last)}, outside the revision statuses; the wait cannot tell whether it will end, so it stops here.`,
        expected: REVISION_STATUSES,
      });
      if (isTerminal(last)) {
        // The failing-image test judges the status (CP-LIFE-003) and then this (CP-LIFE-005) itself.
        // Elsewhere CP-LIFE-005 is recorded without stopping the wait's test: its own rule (a
        // revision that should deploy, CP-LIFE-001) is judged from the status returned.
        if (isFailed(last) && !t.ids.some((r) => FAILING_IMAGE_RULES.includes(r))) await expectFailedNotActive(t, id, revisionId, last, 'go-on');
        return last;
      }
      if (until && (await until(last as string))) return last as string;
    } else {
      misses += 1;
      t.needOn(exchange, misses < MISSES_ALLOWED, {
        requirement: 'CP-REVL-004',
        message: `GET of revision ${revisionId} of deployment ${id} answered ${statusOf(exchange) ?? 'nothing'} ${MISSES_ALLOWED} times in a row while waiting for it to end.`,
        expected: 'HTTP 200 with the revision',
      });
    }
    if (Date.now() + t.profile.pollIntervalMs > deadline) {
      t.timedOut(
        {
          requirement,
          message: `Revision ${revisionId} of deployment ${id} did not end within the deploy timeout (${timeoutMs} ms); its last status was ${JSON.stringify(last)}.`,
          expected: { status: 'DEPLOYED or a status containing FAILED' },
          seen: { status: last },
        },
        'check',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, t.profile.pollIntervalMs));
  }
}

/**
 * On a target that refuses a revision-creating PATCH while a revision is in progress
 * (`busyPatch: refused`, which `apc init` finds out), waits until the deployment's latest revision
 * has ended, as the documented client flow does before it PATCHes. A target that accepts them
 * (spec 3) gets the PATCH at once. A step, not a check: whether the revision ends, and how its
 * status reads, is CP-LIFE-001's and CP-REVL-004's to judge in their own tests. So an unreadable
 * revision or a status outside the known values ends the wait and the PATCH goes; a revision
 * still in progress at the deploy timeout (or near the test's deadline) blocks the PATCH's test
 * by CP-LIFE-001. Returns the latest revision's id, when the deployment could be read.
 */
export async function untilIdle(t: Check, id: string): Promise<string | undefined> {
  const read = await t.cp.get(deploymentPath(id));
  const latest = field(read.response?.json, 'latest_revision_id');
  // Nothing to wait for (a deleted or unknown deployment, a refused read): the PATCH's own test judges what comes next.
  if (statusOf(read) !== 200 || typeof latest !== 'string' || t.profile.busyPatch !== 'refused') return typeof latest === 'string' ? latest : undefined;
  const deadline = Math.min(Date.now() + t.profile.timeouts.deployMs, t.deadlineAt ?? Number.POSITIVE_INFINITY);
  for (;;) {
    const exchange = await t.cp.get(revisionPath(id, latest));
    const status = field(exchange.response?.json, 'status');
    if (statusOf(exchange) !== 200 || typeof status !== 'string' || !REVISION_STATUSES.includes(status) || isTerminal(status)) return latest;
    if (Date.now() + t.profile.pollIntervalMs > deadline) {
      t.timedOut(
        {
          requirement: 'CP-LIFE-001',
          message: `Revision ${latest} of deployment ${id} had not ended when the wait before a PATCH gave up (the deploy timeout of ${t.profile.timeouts.deployMs} ms, or the test's deadline), and the target refuses PATCHes while a revision is in progress; its last status was ${JSON.stringify(status)}.`,
          expected: { status: 'DEPLOYED or a status containing FAILED' },
          seen: describeResponse(exchange),
        },
        'step',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, t.profile.pollIntervalMs));
  }
}
