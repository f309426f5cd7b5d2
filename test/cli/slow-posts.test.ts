// A target whose every POST is answered late (a hosted control plane that provisions a database
// on create) must still certify, and in a time its requests in flight explain: the requests that
// wait on it overlap as far as --concurrency allows (issue "Real platforms, second pass": "A slow
// platform never finishes"). The reference with slow-posts at 400 ms against the plain one, on
// properties whose cases run side by side; and `apc certify --plan` must foresee both wall times.
import { afterAll, expect, test } from 'vitest';
import { expectedTime, loadRequestTable } from '../../harness/run/expected-time.ts';
import { SuiteBatches } from '../../harness/suite-runner/batches.ts';
import { certifyHere, type CertifyRun } from '../support/certify.ts';

// A suite worker of this file's own, kept from its first run to the next: the first run starts it,
// as a user's run does and as the plan's "harness's own work" counts (the test process's kept
// worker, already started by an earlier file, made the fast run a quarter of the plan).
const batches = SuiteBatches.alone(1);
afterAll(() => batches.close());
const suites = { workers: 1, suites: batches };

const REQUIREMENTS = ['EU-TW-001', 'EU-REQ-001', 'AS-SRCH-002'];
/** slow-posts holds every POST 2 s on the platform's clock; at time scale 0.2, 400 ms. */
const SLOW = ['--reference-platform-like', 'slow-posts', '--reference-time-scale', '0.2'];
const POST_MS = 400;
const CONCURRENCY = 4;

const certifyTimed = (args: string[]) =>
  certifyHere({ args: ['--requirements', REQUIREMENTS.join(','), '--concurrency', String(CONCURRENCY), ...args], timeoutMs: 240_000 }, suites);

/** The seconds of "expected wall time: about N s" (or min) that --plan printed. */
function plannedMs(run: CertifyRun): number {
  const match = /expected wall time: about ([\d.]+) (s|min)/.exec(run.stdout);
  expect(match, run.stdout).not.toBeNull();
  return Number(match![1]) * (match![2] === 'min' ? 60_000 : 1000);
}

function expectCertified(run: CertifyRun): void {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  for (const id of REQUIREMENTS) expect(`${id} ${run.status(id)}`).toBe(`${id} passed`);
}

test('POSTs answered 400 ms late: the run certifies, its POSTs overlap (at least twice as fast as one at a time), and --plan foresees both wall times within a factor of three', async () => {
  const fast = await certifyTimed([]);
  const slow = await certifyTimed(SLOW);
  expectCertified(fast);
  expectCertified(slow);
  // The selection's POSTs, as the plan counts them (counted on the reference, harness/run/request-counts.json).
  const posts = Object.values(expectedTime(loadRequestTable(), REQUIREMENTS, {}, CONCURRENCY).requests).reduce((sum, c) => sum + c.posts, 0);
  expect(posts).toBeGreaterThan(30);
  const oneAtATimeMs = posts * POST_MS;
  expect(slow.durationMs - fast.durationMs, `fast ${fast.durationMs} ms, slow ${slow.durationMs} ms, ${posts} POSTs`).toBeLessThan(oneAtATimeMs / 2);

  const fastPlan = await certifyTimed(['--plan']);
  const slowPlan = await certifyTimed(['--plan', ...SLOW]);
  expect(slowPlan.stdout).toMatch(/latency measured: read \d+ ms, POST (4\d\d ms|0\.[4-9] s)/);
  for (const [plan, run] of [
    [fastPlan, fast],
    [slowPlan, slow],
  ] as const) {
    const ratio = plannedMs(plan) / run.durationMs;
    expect(ratio, `planned ${plannedMs(plan)} ms, ran ${run.durationMs} ms\n${plan.stdout}`).toBeGreaterThan(1 / 3);
    expect(ratio, `planned ${plannedMs(plan)} ms, ran ${run.durationMs} ms\n${plan.stdout}`).toBeLessThan(3);
  }
}, 600_000);
