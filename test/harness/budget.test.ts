// The budget: which tests a budget of deployments and revisions leaves out, how it is read from a
// flag, and a certification of the reference within one (the rest skipped, saying "budget"). The
// certifications run inside this process: under a budget the control plane gets one suite worker anyway.
import { describe, expect, test } from 'vitest';
import { buildProfile, ProfileError } from '../../harness/profile/sources.ts';
import { overBudget, planOf } from '../../harness/run/cost.ts';
import type { PlannedTest } from '../../harness/run/planned-tests.ts';
import { BudgetLedger } from '../../harness/budget/ledger.ts';
import { certifyHere, keptSuiteWorkers } from '../support/certify.ts';

// The certifications share a suite worker, kept from run to run.
const suites = keptSuiteWorkers();

const planned = (title: string, requirements: string[], deployments: number, revisions = deployments): PlannedTest => ({
  title,
  file: 'suites/control-plane/x.suite.ts',
  requirements,
  cost: { creates: { deployments, revisions } },
});
const level = (id: string) => (id.startsWith('M') ? 'MUST' : 'MAY');

describe('overBudget', () => {
  test('tests that create nothing always run; the others buy the most MUSTs per deployment and revision first', () => {
    const tests = [planned('free', ['M1'], 0), planned('dear', ['M2'], 5, 10), planned('cheap', ['M3', 'M4'], 1), planned('may', ['Y1'], 1)];
    expect(overBudget(tests, { deployments: 2, revisions: 40 }, level)).toEqual(['dear']);
    expect(overBudget(tests, { deployments: 1 }, level)).toEqual(['dear', 'may']);
    expect(overBudget(tests, { revisions: 11 }, level)).toEqual(['may']);
    expect(overBudget(tests, {}, level)).toEqual([]);
  });
});

describe('the plan of a budgeted run', () => {
  const byId = new Map([['CP-X-001', { interface: 'control-plane' as const }]]);
  const onPool = (file: string, key: string, accepted: number): PlannedTest => ({
    title: `CP-X-001 ${file} ${key}`,
    file,
    requirements: ['CP-X-001'],
    cost: { creates: { revisions: 1 }, shared: { [key]: { deployments: 1, revisions: 1 } }, waits: { accepted, refused: accepted } },
  });

  test('tests on one pooled deployment hold it one at a time, in whichever files and workers: their waits add up; other keys overlap', () => {
    const tests = [onPool('a.suite.ts', 'k', 1), onPool('b.suite.ts', 'k', 2), onPool('c.suite.ts', 'j', 1), onPool('d.suite.ts', 'i', 1)];
    // Four workers, four files: without the pool each file's one wait of at most 2 would overlap; key k holds 1 + 2 in a row.
    expect(planOf(tests, byId, 1000, 'accepted', 4).waitsMs).toBe(3000);
    // One worker: the files' waits one after another (5) outweigh any key's.
    expect(planOf(tests, byId, 1000, 'accepted', 1).waitsMs).toBe(5000);
    // Each pooled deployment is counted once, by whichever test makes it.
    expect(planOf(tests, byId, 1000, 'accepted', 4).interfaces['control-plane']!.creates).toEqual({ deployments: 3, revisions: 7 });
  });
});

describe('the budget ledger: a hard limit', () => {
  test('reserves what fits, makes a reservation wait while others in flight may give theirs back, refuses what cannot fit, and never counts more created than the budget', () => {
    const ledger = new BudgetLedger({ deployments: 2, revisions: 3 });
    expect(ledger.reserve({ deployments: 1, revisions: 1 })).toBe('granted');
    expect(ledger.reserve({ deployments: 1, revisions: 1 })).toBe('granted');
    // Both in flight: a third create fits only if one of them creates nothing.
    expect(ledger.reserve({ deployments: 1, revisions: 1 })).toBe('wait');
    ledger.settle({ deployments: 1, revisions: 1 }, {});
    expect(ledger.reserve({ deployments: 1, revisions: 1 })).toBe('granted');
    ledger.settle({ deployments: 1, revisions: 1 }, { deployments: 1, revisions: 1 });
    ledger.settle({ deployments: 1, revisions: 1 }, { deployments: 1, revisions: 1 });
    expect(ledger.created).toEqual({ deployments: 2, revisions: 2 });
    expect(ledger.reserve({ deployments: 1, revisions: 1 })).toBe('spent');
    expect(ledger.reserve({ revisions: 1 })).toBe('granted');
    ledger.settle({ revisions: 1 }, { revisions: 1 });
    expect(ledger.reserve({ revisions: 1 })).toBe('spent');
    expect(ledger.created).toEqual({ deployments: 2, revisions: 3 });
  });

  test('a budget without a limit on a kind never refuses it', () => {
    const ledger = new BudgetLedger({ revisions: 1 });
    for (let i = 0; i < 50; i++) expect(ledger.reserve({ deployments: 1 })).toBe('granted');
  });
});

describe('--budget', () => {
  test('reads deployments=N,revisions=M, either left out', () => {
    expect(buildProfile({ budget: 'deployments=12,revisions=40' }, {}).budget).toEqual({ deployments: 12, revisions: 40 });
    expect(buildProfile({}, { APC_BUDGET: 'revisions=3' }).budget).toEqual({ revisions: 3 });
    expect(buildProfile({}, {}).budget).toBeUndefined();
    expect(() => buildProfile({ budget: 'builds=3' }, {})).toThrow(ProfileError);
    expect(buildProfile({ budget: 'none' }, {}).budget).toEqual({});
  });

  test('a target given by URL gets 12 deployments and 40 revisions (and room for its probes without a profile) unless a flag or the profile says otherwise; the reference the harness starts, none', async () => {
    const plan = (args: string[], profile?: Record<string, unknown>) =>
      certifyHere({ args: ['--plan', '--interfaces', 'control-plane', '--requirements', 'CP-READ-00[12]', ...args], ...(profile ? { profile } : {}) });
    const url = ['--control-plane-url', 'http://127.0.0.1:9'];
    expect((await plan(url, {})).stdout).toContain('budget 12 deployments, 40 revisions:');
    // Without a profile a run probes the target first (run/probe-budget.ts): the default has room for it, and the tests keep 12/40.
    const bare = (await plan(url)).stdout;
    expect(bare).toContain(
      'budget 16 deployments, 46 revisions: the default for a URL (12 deployments, 40 revisions) and 4 deployments, 6 revisions for probing the target without a profile',
    );
    expect(bare).toContain('the tests are planned within 12 deployments, 40 revisions');
    expect((await plan([...url, '--budget', 'deployments=3'])).stdout).toContain('budget 3 deployments:');
    expect((await plan(url, { budget: { revisions: 7 } })).stdout).toContain('budget 7 revisions:');
    for (const run of [await plan([...url, '--budget', 'none']), await plan(url, { budget: {} }), await plan([])]) {
      expect(run.code).toBe(0);
      expect(run.stdout).not.toContain('budget');
    }
  }, 120_000);

  test('a certification of the reference within a budget: what it leaves out is skipped with "budget", nothing beyond it is created', async () => {
    const run = await certifyHere({ args: ['--interfaces', 'control-plane', '--requirements', 'CP-REV-00[1-4]', '--budget', 'deployments=1', '--seed', '3'] }, suites);
    const report = run.report!;
    expect(report.cost!.created['control-plane']!.deployments).toBeLessThanOrEqual(1);
    const skipped = report.requirements.filter((r) => r.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    for (const r of skipped) expect(r.reason).toMatch(/^budget: /);
    expect(report.requirements.filter((r) => r.status === 'passed').length).toBeGreaterThan(0);
  }, 120_000);

  test('a target that accepts creates it must refuse gets no more deployments than the budget: what would need more is skipped, "budget: spent", and the report\'s "created" stays within it', async () => {
    const run = await certifyHere({ args: ['--interfaces', 'control-plane', '--requirements', 'CP-TAG-*,CP-CREATE-*,CP-REV-00[1-4]', '--reference-fault', 'cp.tag-build-on-push-accepted', '--budget', 'deployments=3,revisions=8', '--seed', '3'] }, suites);
    const report = run.report!;
    const created = report.cost!.created['control-plane']!;
    expect(created.deployments, run.stdout).toBeLessThanOrEqual(3);
    expect(created.revisions ?? 0, run.stdout).toBeLessThanOrEqual(8);
    const spent = report.requirements.filter((r) => r.status === 'skipped' && r.reason?.startsWith('budget: spent'));
    expect(spent.length, run.stdout).toBeGreaterThan(0);
    // Counts in words: "3 deployments, 1 revision", never "1 revisions".
    for (const r of spent) expect(r.reason).toMatch(/^budget: spent: the run has created (\d+ deployments?(, \d+ revisions?)?|\d+ revisions?|nothing) of its budget/);
    for (const r of spent) expect(r.reason).not.toMatch(/\b1 (deployments|revisions)\b/);
    expect(report.verdict).not.toBe('certified');
  }, 120_000);

  // Hosted, every rule fits, the MAY deletion rules included; self-hosted (the external_container
  // rules besides) CP-DEL-004 alone is left out, and it is a MAY. The plan spends 12 deployments
  // and 40 revisions: one more of each is kept free for the creates and PATCHes the target refuses
  // (cost.ts plannable), since the run never passes its budget, not even for those.
  test.each([
    ['hosted', [], []],
    ['self-hosted', ['--control-plane-mode', 'self-hosted'], ['CP-DEL-004']],
  ])('a full %s control-plane certification of the reference within 13 deployments and 41 revisions judges every MUST: tests share deployments', async (_mode, args, leftOut) => {
    const run = await certifyHere({ args: ['--interfaces', 'control-plane', ...args, '--budget', 'deployments=13,revisions=41', '--seed', '5'] }, suites);
    const report = run.report!;
    const created = report.cost!.created['control-plane']!;
    expect(created.deployments).toBeLessThanOrEqual(12);
    expect(created.revisions).toBeLessThanOrEqual(40);
    // What the budget left out is MAY at most; the pooled deployments were deleted without a problem.
    const left = report.requirements.filter((r) => r.status === 'skipped' && r.reason?.startsWith('budget: '));
    expect(left.map((r) => r.id)).toEqual(leftOut);
    expect(left.filter((r) => r.level === 'MUST')).toEqual([]);
    expect(report.errors).toEqual([]);
    expect(report.verdict).toBe('certified');
  }, 300_000);
});
