// A test's deadline on a slow target. The deadlines of tests are bounds on the harness's own
// patience, made for targets that answer in milliseconds: a property of 25 command sequences, each
// several POSTs, outlasted its deadline against a target whose POSTs take 2 s, and the timeout
// failed every rule of the test on a conforming target (a false alarm). The run measures the
// target's latency as it starts (harness/run/latency.ts); a test's deadline is then at least twice
// the time of its requests one after another (as many as it sent on the reference,
// harness/run/request-counts.json): a worker may have a single request in flight, and the margin
// covers a loaded machine and the requests a slower target makes a test send again.
// The counts are read once per run, by its SuiteRun (suite-run.ts), and only when the latency was measured.
import type { RequestTable } from './request-count.ts';
import type { InterfaceName } from '../profile/profile.ts';
import type { RunContext } from './run-context.ts';

/**
 * Its requests one after another at the target's latency, ms; 0 when the latency was not measured
 * or the test was not counted. `table` reads the counts, called only when the latency was measured.
 */
export function serialRequestMs(run: RunContext, title: string, table: () => RequestTable): number {
  if (!run.latency || Object.keys(run.latency).length === 0) return 0;
  const counted = table().tests[title];
  if (!counted) return 0;
  let ms = 0;
  for (const [name, count] of Object.entries(counted.requests) as [InterfaceName, { posts: number; others: number }][]) {
    const latency = run.latency[name];
    if (latency) ms += count.posts * latency.postMs + count.others * latency.readMs;
  }
  return ms;
}

/** The margin over that time. */
export const SLOW_DEADLINE_FACTOR = 2;
