// A slow platform must still finish: the reference answering every POST 2 s late (slow-posts, a
// hosted control plane that provisions a database on create), certified by URL with the default
// settings and the default budget of a target given by URL, as a user would certify it; then the
// same with more requests in flight (the run chooses 8 for such a target by itself, harness/run/in-flight.ts). Goal (issue "Real platforms, second pass", item 5): at most
// 5 minutes with the default settings. What bounds it from below is the POSTs' own time shared
// among the requests in flight: the run prints the expected wall time from the latency it
// measured (harness/run/expected-time.ts), kept here beside the wall time.
import { loadavg } from 'node:os';
import { REMOTE_BUDGET } from '../harness/profile/profile.ts';
import { referenceProfileFile, startReferenceTarget } from '../harness/reference/reference-target.ts';
import { certifyChild } from '../harness/selftest/certify-child.ts';
import { REFERENCE_REVISION_MS } from '../harness/run/cost.ts';
import { round } from './support/load.ts';

export interface SlowPostsRun {
  concurrency: number;
  /** Given as --concurrency; otherwise the run chose it from the latency it measured (harness/run/in-flight.ts). */
  given: boolean;
  wallSeconds: number;
  verdict: string;
  /** What the run printed before it started: "about N min (...)". */
  expected: string;
  /** The requirements that did not pass, with their status (a false alarm shows here). */
  notPassed: string[];
  load: number;
}

/** The default budget of a target given by URL, as a flag (the reference's profile file says none). */
const URL_BUDGET = ['--budget', `deployments=${REMOTE_BUDGET.deployments},revisions=${REMOTE_BUDGET.revisions}`];

async function certifySlow(concurrency: number | undefined, timeScale: number): Promise<SlowPostsRun> {
  const target = await startReferenceTarget({ mode: 'hosted', platformLike: { behaviours: ['slow-posts'], timeScale } });
  try {
    const [own, other] = target.grants;
    const load = round(loadavg()[0]!, 1);
    const certify = (more: string[], timeoutMs: number) =>
      certifyChild({
        profile: referenceProfileFile(target),
        args: ['--seed', '1', ...URL_BUDGET, ...(concurrency ? ['--concurrency', String(concurrency)] : []), ...more],
        env: { APC_API_KEY: own!.key, APC_OTHER_API_KEY: other!.key },
        timeoutMs,
      });
    // The run's own banner is not printed (a child run is --quiet); its --plan prints the same expected time, from a latency measured
    // alike, with the reference's revision time for the waits (a target given by URL is otherwise planned at a real build's 14 minutes).
    const plan = await certify(['--plan', '--revision-time', `${REFERENCE_REVISION_MS / 1000}s`], 120_000);
    const run = await certify([], 1_200_000);
    const report = run.report;
    return {
      concurrency: concurrency ?? report?.target.profile.concurrency ?? 0,
      given: concurrency !== undefined,
      wallSeconds: round(run.durationMs / 1000),
      verdict: report?.verdict ?? `no report (exit ${run.code})`,
      expected: /expected wall time: (about [^(]+)/.exec(plan.stdout)?.[1]?.trim() ?? 'not printed',
      notPassed: (report?.requirements ?? []).filter((r) => !['passed', 'not-applicable'].includes(r.status)).map((r) => `${r.id} ${r.status}`),
      load,
    };
  } finally {
    await target.close();
  }
}

/** The default settings, then `concurrency` requests in flight; POSTs `2 s × timeScale` late. */
export async function slowPosts(concurrency: number, timeScale = 1): Promise<SlowPostsRun[]> {
  return [await certifySlow(undefined, timeScale), await certifySlow(concurrency, timeScale)];
}

export function printSlowPosts(runs: SlowPostsRun[], out: (line: string) => void): void {
  out('slow posts (the reference answering every POST 2 s late, by URL, default budget; goal ≤ 300 s with the default settings)');
  for (const run of runs) {
    const judged = run.notPassed.length === 0 ? '' : `; not passed: ${run.notPassed.join(', ')}`;
    out(
      `  ${run.given ? '--concurrency' : 'default settings, concurrency'} ${run.concurrency}: ${run.wallSeconds} s, ${run.verdict} (expected ${run.expected}; load ${run.load})${judged}`,
    );
  }
}
