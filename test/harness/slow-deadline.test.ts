// A test's deadline grows with the target's measured latency: at least twice its requests one
// after another, as counted on the reference. Against a target whose POSTs take 2 s, the
// assistant command sequences outlasted their fixed deadline and failed seven rules of a conforming
// target; measured quick, or not measured, the deadline is the test's own.
import { expect, test } from 'vitest';
import { loadRequestTable } from '../../harness/conformance/request-count.ts';
import type { RunContext } from '../../harness/conformance/run-context.ts';
import { serialRequestMs as serialMsOf, SLOW_DEADLINE_FACTOR } from '../../harness/conformance/slow-deadline.ts';
import { SuiteRun } from '../../harness/conformance/suite-run.ts';
import { timeoutFor } from '../../harness/conformance/test-run.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';

const table = loadRequestTable();
const SEQUENCES = Object.keys(table.tests).find((title) => title.includes('agrees with the model of assistant versions'))!;
const run = (latency?: RunContext['latency']): RunContext => ({
  profile: defaultProfile(),
  runId: 'apc-test',
  reproFlags: '',
  workerConcurrency: 1,
  ...(latency ? { latency } : {}),
});
const slow = { 'agent-server': { readMs: 10, postMs: 2000 } };
/** A test's requests one after another, as the run's SuiteRun counts them. */
const serialRequestMs = (context: RunContext, title: string) => new SuiteRun(context).serialRequestMs(title);
/** A test's deadline on the run, as a suite worker sets it. */
const deadline = (context: RunContext, title: string) => timeoutFor(context, undefined, { creates: {} }, serialRequestMs(context, title));

test('the assistant command sequences against POSTs of 2 s: the deadline covers twice their requests one after another', () => {
  expect(SEQUENCES).toBeDefined();
  const { posts, others } = table.tests[SEQUENCES]!.requests['agent-server']!;
  expect(serialRequestMs(run(slow), SEQUENCES)).toBe(posts * 2000 + others * 10);
  const own = deadline(run(), SEQUENCES);
  const grown = deadline(run(slow), SEQUENCES);
  expect(grown).toBeGreaterThanOrEqual(SLOW_DEADLINE_FACTOR * serialRequestMs(run(slow), SEQUENCES));
  expect(grown).toBeGreaterThan(own);
});

test('a quick target, an unmeasured one, or a test the table does not know keeps its own deadline', () => {
  const own = deadline(run(), SEQUENCES);
  expect(deadline(run({ 'agent-server': { readMs: 2, postMs: 3 } }), SEQUENCES)).toBe(own);
  expect(serialRequestMs(run(), SEQUENCES)).toBe(0);
  expect(serialRequestMs(run(slow), 'AS-XXX-999 a test no run counted')).toBe(0);
});

test('the request counts are read for the run, and only once its latency was measured', () => {
  let reads = 0;
  const read = () => {
    reads += 1;
    return table;
  };
  expect(serialMsOf(run(), SEQUENCES, read)).toBe(0);
  expect(reads).toBe(0);
  expect(serialMsOf(run(slow), SEQUENCES, read)).toBeGreaterThan(0);
  expect(reads).toBe(1);
});
