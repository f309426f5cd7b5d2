// The live progress tells failed from blocked and from expected (issue 37: "the live progress
// prints ✗ for blocked requirements": 29 ✗ lines in a run whose summary said 12 failed, 17 blocked).
import { expect, test } from 'vitest';
import { Progress } from '../../harness/run/progress.ts';
import { markOf } from '../../harness/run/outcome-mark.ts';
import type { TestOutcome } from '../../harness/report/compliance.ts';

const failedOutcome = (requirements: string[], named: string, extra: Partial<TestOutcome['failures'][number]> = {}): TestOutcome => ({
  title: `${requirements.join(' ')} title`,
  file: 'suites/agent-server/x.suite.ts',
  requirements,
  state: 'failed',
  failures: [{ requirements: [named], message: `broke ${named}.`, repro: 'apc certify', exchanges: [], ...extra }],
  checks: {},
  properties: [],
  durationMs: 1,
});

function printed(outcomes: TestOutcome[], expected: string[] = []): string {
  let text = '';
  const progress = new Progress({ write: (t) => void (text += t) });
  progress.expecting(expected);
  for (const o of outcomes) progress.outcome(o);
  progress.fileEnd('suites/agent-server/x.suite.ts');
  return text;
}

test("live progress prints ✗ for blocked no more: a test stopped at another rule's failure gets ⊘ and its root cause", () => {
  const text = printed([failedOutcome(['AS-RUN-001'], 'AS-SSE-006'), failedOutcome(['AS-SSE-006'], 'AS-SSE-006')]);
  expect(text).toMatch(/⊘ blocked by AS-SSE-006 AS-RUN-001 title/);
  expect(text).toMatch(/✗ AS-SSE-006 title/);
  expect(text.match(/✗ AS-/g)).toHaveLength(1);
  expect(text).toMatch(/1 failed, 1 blocked/);
});

test('an expected failure prints as expected, and what it blocks as blocked by an expected failure', () => {
  const text = printed([failedOutcome(['AS-SSE-006'], 'AS-SSE-006'), failedOutcome(['AS-RUN-001'], 'AS-SSE-006')], ['AS-SSE-006']);
  expect(text).toMatch(/∼ expected failure \(baseline\) AS-SSE-006 title/);
  expect(text).toMatch(/⊘ blocked by the expected failure of AS-SSE-006 AS-RUN-001 title/);
  expect(text).not.toMatch(/✗/);
});

test('a set check that failed says it may be an echo; a crash without a failure is failed', () => {
  expect(markOf(failedOutcome(['AS-SRCH-003'], 'AS-SRCH-003', { reliesOn: ['AS-SRCH-001'] }))).toEqual({ kind: 'failed', reliesOn: ['AS-SRCH-001'] });
  expect(markOf({ ...failedOutcome(['AS-SRCH-003'], 'AS-SRCH-003'), failures: [] })).toEqual({ kind: 'failed' });
});

test('the count of tests done is "1 test done", then "2 tests done"', () => {
  expect(printed([failedOutcome(['AS-SSE-006'], 'AS-SSE-006')])).toContain('[1 test done]');
  expect(printed([failedOutcome(['AS-SSE-006'], 'AS-SSE-006'), failedOutcome(['AS-RUN-001'], 'AS-RUN-001')])).toContain('[2 tests done]');
});
