// The feedback section compares two commits in one run: each in a clone of its own at its commit,
// in rounds that alternate which goes first, and each command's ratio is taken between medians,
// so one run slowed by a spell of load does not decide it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { compareRuns, feedbackRounds, roundOrder, type FeedbackFigures } from '../../bench/feedback.ts';
import { feedbackPlan } from '../../bench/feedback-plan.ts';
import { printFeedback } from '../../bench/print-feedback.ts';
import { cloneAt, clonesFolder, resolveCommit, type Checkout } from '../../bench/support/checkouts.ts';
import { fileDurations } from '../../bench/support/vitest-durations.ts';
import { failedTests, MAX_NAMED } from '../../bench/support/vitest-failures.ts';
import { ROOT } from '../../harness/root.ts';

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();

test('rounds alternate which commit goes first, each command on both before the next command', async () => {
  expect(roundOrder(['old', 'new'], 1)).toEqual(['old', 'new']);
  expect(roundOrder(['old', 'new'], 2)).toEqual(['new', 'old']);
  const checkouts: Checkout[] = [
    { label: 'old', commit: 'a', dir: '/a' },
    { label: 'new', commit: 'b', dir: '/b' },
  ];
  const order: string[] = [];
  const runs = await feedbackRounds(checkouts, ['npm-test', 'selftest'], 2, async (checkout, command, round) => {
    order.push(`${round} ${command} ${checkout.label}`);
    return { command, checkout: checkout.label, round, wallSeconds: 1, cpuSeconds: 1, loadBefore: 0, passed: true };
  });
  expect(order).toEqual([
    '1 npm-test old',
    '1 npm-test new',
    '1 selftest old',
    '1 selftest new',
    '2 npm-test new',
    '2 npm-test old',
    '2 selftest new',
    '2 selftest old',
  ]);
  expect(runs).toHaveLength(8);
});

test('the ratio is new ÷ old of the medians: one run slowed by load moves nothing', () => {
  const run = (checkout: string, wallSeconds: number, cpuSeconds: number): FeedbackFigures => ({
    command: 'npm test',
    checkout,
    round: 1,
    wallSeconds,
    cpuSeconds,
    loadBefore: 2,
    passed: true,
  });
  const [comparison, ...rest] = compareRuns([
    run('old', 300, 500),
    run('old', 310, 520),
    run('old', 900, 530),
    run('new', 320, 450),
    run('new', 330, 460),
    run('new', 280, 440),
  ]);
  expect(rest).toEqual([]);
  expect(comparison).toEqual({
    command: 'npm test',
    old: { wallSeconds: 310, cpuSeconds: 520 },
    new: { wallSeconds: 320, cpuSeconds: 450 },
    wallRatio: 1.032,
    cpuRatio: 0.865,
  });
  // A failed run says how far it got, not what a run costs: it is left out, and no ratio is made without a passing run on each side.
  expect(compareRuns([run('old', 300, 500), run('new', 320, 450), { ...run('new', 10, 10), passed: false }])[0]?.new).toEqual({
    wallSeconds: 320,
    cpuSeconds: 450,
  });
  expect(compareRuns([run('old', 300, 500), { ...run('new', 320, 450), passed: false }])).toEqual([]);
  // Without two commits there is nothing to compare.
  expect(compareRuns([{ ...run('this checkout', 1, 1) }])).toEqual([]);
  const lines: string[] = [];
  printFeedback({ checkouts: [], runs: [], comparisons: [{ ...comparison!, wallRatio: 1.2 }] }, (line = '') => lines.push(line));
  expect(lines[1]).toContain('wall 1.200 (more than 10% slower)');
  expect(lines[1]).toContain('CPU 0.865 (450 s ÷ 520 s)');
});

test('the plan reads the commits, the commands and the rounds, or says what is wrong in one line', () => {
  const head = git(ROOT, 'rev-parse', 'HEAD');
  const parent = git(ROOT, 'rev-parse', 'HEAD~1');
  expect(feedbackPlan({ old: 'HEAD~1' }, true)).toEqual({ commands: ['npm-test', 'selftest'], rounds: 1, commits: { old: parent, new: head } });
  expect(feedbackPlan({ 'feedback-rounds': '3' }, false)).toEqual({ commands: ['unit'], rounds: 3 });
  expect(feedbackPlan({ 'feedback-rounds': '0' }, true)).toEqual({ problem: '--feedback-rounds wants a whole number of at least 1, found "0"' });
  expect(feedbackPlan({ 'feedback-commands': 'npm-test,selfttest' }, true)).toEqual({
    problem: '--feedback-commands takes some of npm-test, selftest, unit, found "selfttest"',
  });
  expect(feedbackPlan({ old: 'no-such-branch' }, true)).toEqual({ problem: '--old: "no-such-branch" names no commit of this repository' });
  expect(resolveCommit('HEAD')).toEqual({ commit: head });
});

const clones = clonesFolder();
afterAll(() => clones.remove());

test('a commit is checked out in a clone of its own, and this checkout is left as it was', () => {
  const before = git(ROOT, 'status', '--porcelain');
  const worktrees = git(ROOT, 'worktree', 'list');
  const parent = git(ROOT, 'rev-parse', 'HEAD~1');
  const clone = cloneAt(clones.parent, 'old', parent);
  expect(clone).toMatchObject({ label: 'old', commit: parent });
  expect(git(clone.dir, 'rev-parse', 'HEAD')).toBe(parent);
  expect(git(clone.dir, 'status', '--porcelain')).toBe('');
  expect(existsSync(join(clone.dir, 'package.json'))).toBe(true);
  expect(git(ROOT, 'status', '--porcelain')).toBe(before);
  expect(git(ROOT, 'worktree', 'list')).toBe(worktrees);
});

test("npm test's files by duration come from the checkout's vitest cache, longest first, without apc selftest's suite runs", () => {
  const dir = mkdtempSync(join(clones.parent, 'cache-'));
  expect(fileDurations(dir)).toEqual([]);
  const cache = join(dir, 'node_modules', '.vite', 'vitest', 'da39a3ee');
  mkdirSync(cache, { recursive: true });
  const results = [
    [':test/a.test.ts', { duration: 1234.5, failed: false }],
    [':test/selftest/selftest.test.ts', { duration: 572806.03, failed: false }],
    [':suites/control-plane/errors.suite.ts?apc-run=1', { duration: 13400, failed: false }],
  ];
  writeFileSync(join(cache, 'results.json'), JSON.stringify({ version: '4.1.12', results }));
  expect(fileDurations(dir)).toEqual([
    { file: 'test/selftest/selftest.test.ts', seconds: 572.8 },
    { file: 'test/a.test.ts', seconds: 1.2 },
  ]);
});

test("a failed npm test names its failed tests, from vitest's FAIL lines, coloured or not, each once", () => {
  const output = [
    ' \u001b[32m✓\u001b[39m test/a.test.ts (3 tests) 20ms',
    '   ✓ a revision that ends FAILED where it should deploy fails CP-LIFE-001',
    '\u001b[41m\u001b[1m FAIL \u001b[22m\u001b[49m test/b.test.ts\u001b[2m > \u001b[22mon postgres',
    ' FAIL  test/selftest/selftest.test.ts > apc selftest meets every target',
    '\u001b[41m\u001b[1m FAIL \u001b[22m\u001b[49m test/b.test.ts\u001b[2m > \u001b[22mon postgres',
  ].join('\n');
  expect(failedTests(output)).toEqual(['test/b.test.ts > on postgres', 'test/selftest/selftest.test.ts > apc selftest meets every target']);
  expect(failedTests(' ✓ test/a.test.ts (3 tests)\n')).toEqual([]);
  const many = Array.from({ length: MAX_NAMED + 5 }, (_, i) => ` FAIL  test/f${i}.test.ts > t`).join('\n');
  expect(failedTests(many)).toHaveLength(MAX_NAMED);
  const lines: string[] = [];
  const failed = ['test/b.test.ts > on postgres'];
  const run: FeedbackFigures = { command: 'npm test', checkout: 'new', round: 1, wallSeconds: 500, cpuSeconds: 900, loadBefore: 2, passed: false, failed };
  printFeedback({ checkouts: [], runs: [run], comparisons: [] }, (line = '') => lines.push(line));
  expect(lines).toContain('    failed: test/b.test.ts > on postgres');
});
