// The multi-fault selftest's measuring instrument: the scoring arithmetic on hand-made statuses,
// and two small combinations certified for real (a few requirements each, 3 runs per property),
// whose scores are checked against what was worked out by hand. The fixed table is checked too:
// at least 20 combinations of 3 to 5 existing mutants of different families, with disjoint
// requirements, a third of them holding a structural fault.
import { describe, expect, test } from 'vitest';
import { COMBINATIONS } from '../../harness/selftest/multi-fault/combinations.ts';
import { componentsOf, runCombination } from '../../harness/selftest/multi-fault/run-combination.ts';
import { multiFaultProblems, scoreCombination, totalsOf, type Status } from '../../harness/selftest/multi-fault/score.ts';
import type { RunSettings } from '../../harness/selftest/run-subject.ts';
import { selftestSubjects } from '../../harness/selftest/subject-list.ts';
import { keptSuiteWorkers } from '../support/certify.ts';

const mutants = new Map(selftestSubjects().flatMap((s) => (s.kind === 'mutant' ? [[s.id, s] as const] : [])));

describe('the scoring', () => {
  const statuses: Status[] = [
    { id: 'A-1', level: 'MUST', status: 'failed' },
    { id: 'B-1', level: 'MUST', status: 'failed' },
    { id: 'B-2', level: 'MUST', status: 'blocked' },
    { id: 'C-1', level: 'SHOULD', status: 'failed' },
    { id: 'X-1', level: 'MUST', status: 'failed' },
    { id: 'X-2', level: 'SHOULD', status: 'failed' },
    { id: 'X-3', level: 'MUST', status: 'passed' },
  ];
  const declared = [
    { id: 'a', catches: ['A-1'] },
    { id: 'b', catches: ['B-1', 'B-2'] },
    { id: 'c', catches: ['C-1'] },
  ];

  test('a component is found when every requirement it declares failed; outside counts MUST failures beyond the union', () => {
    const score = scoreCombination('mf.t', declared, statuses);
    // a: A-1 failed; b: B-2 blocked, so not found; c: C-1 failed (a SHOULD counts for its component).
    expect(score.components.map((c) => [c.id, c.found, c.notFailed])).toEqual([
      ['a', true, []],
      ['b', false, ['B-2 blocked']],
      ['c', true, []],
    ]);
    expect(score.recall).toBeCloseTo(2 / 3);
    // X-1 is a MUST failed outside {A-1, B-1, B-2, C-1}; X-2 is a SHOULD, X-3 passed.
    expect(score.outside).toEqual(['X-1']);
  });

  test('totals pool the components of every combination; the targets are 90% overall, 75% each, nothing outside', () => {
    const perfect = scoreCombination(
      'mf.p',
      declared,
      declared.flatMap((d) => d.catches.map((id): Status => ({ id, level: 'MUST', status: 'failed' }))),
    );
    const partial = scoreCombination('mf.t', declared, statuses);
    // 3 + 2 found of 6 components; the lowest combination 2/3; one MUST outside.
    expect(totalsOf([perfect, partial])).toEqual({ combinations: 2, components: 6, found: 5, recall: 5 / 6, lowest: 2 / 3, outside: 1 });
    const problems = multiFaultProblems([perfect, partial]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/recall 83\.3% \(5\/6\) is below 90\.0%/);
    expect(problems[1]).toMatch(/mf\.t: recall 66\.7%, below 75\.0% \(not found: b \[B-2 blocked\]\)/);
    expect(problems[2]).toMatch(/mf\.t: MUST failures outside .*: X-1/);
    expect(multiFaultProblems([perfect])).toEqual([]);
    // A selftest run without the multi-fault kind (the default one) misses no multi-fault target.
    expect(multiFaultProblems([])).toEqual([]);
  });

  test('a component whose requirement was not run is not found', () => {
    expect(scoreCombination('mf.n', [{ id: 'a', catches: ['A-9'] }], []).components[0]).toMatchObject({ found: false, notFailed: ['A-9 not run'] });
  });
});

describe('the table', () => {
  test('at least 20 fixed combinations of 3 to 5 existing mutants of different families, one mode each, disjoint requirements', () => {
    expect(COMBINATIONS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(COMBINATIONS.map((c) => c.id)).size).toBe(COMBINATIONS.length);
    for (const c of COMBINATIONS) {
      const components = componentsOf(c, mutants);
      expect(components.length, c.id).toBeGreaterThanOrEqual(3);
      expect(components.length, c.id).toBeLessThanOrEqual(5);
      expect(new Set(components.map((m) => m.family)).size, c.id).toBe(components.length);
      const requirements = components.flatMap((m) => m.catches);
      expect(new Set(requirements).size, c.id).toBe(requirements.length);
      if (c.structural) expect(c.components, c.id).toContain(c.structural);
    }
  });

  test('a third of them hold a structural fault; some stay within one interface, some cross interfaces', () => {
    expect(COMBINATIONS.filter((c) => c.structural).length * 3).toBeGreaterThanOrEqual(COMBINATIONS.length);
    const spans = COMBINATIONS.map((c) => new Set(componentsOf(c, mutants).map((m) => m.interface)).size);
    expect(spans.filter((n) => n === 1).length).toBeGreaterThanOrEqual(5);
    expect(spans.filter((n) => n > 1).length).toBeGreaterThanOrEqual(5);
  });
});

describe('two combinations certified on a few requirements', () => {
  // The test process's kept suite worker (test/support/certify.ts), shared with its other files.
  const batches = keptSuiteWorkers().suites;
  const settings: RunSettings = { runs: 3, seed: 1, seeds: 1, detectionRuns: 3, timeoutMs: 240_000, batches };

  test('a switch and two proxies on the agent server: each found, the other rules certified pass', async () => {
    const combination = { id: 'mf.test-agent-server', components: ['as.wrong-content-type', 'as.name-not-kept', 'as.docs-missing'], why: 'test' };
    const run = await runCombination(combination, componentsOf(combination, mutants), settings, ['AS-SSE-001', 'AS-ASST-001', 'AS-DOCS-001', 'AS-THR-001']);
    expect(run.error).toBeUndefined();
    expect(run.components.map((c) => [c.id, c.found])).toEqual([
      ['as.wrong-content-type', true],
      ['as.name-not-kept', true],
      ['as.docs-missing', true],
    ]);
    expect(run.recall).toBe(1);
    expect(run.outside).toEqual([]);
  }, 300_000);

  test('across three interfaces, one component left out of the scope: recall 2/3 as worked out by hand', async () => {
    const combination = { id: 'mf.test-across', components: ['cp.create-answers-200', 'eu.no-window-check', 'as.search-offset-ignored'], why: 'test' };
    const run = await runCombination(combination, componentsOf(combination, mutants), settings, ['CP-CREATE-001', 'EU-TW-002', 'EU-TW-003', 'AS-SRCH-001']);
    expect(run.error).toBeUndefined();
    expect(run.interfaces).toEqual(['control-plane', 'experiment-upload', 'agent-server']);
    expect(run.components.map((c) => [c.id, c.found, c.notFailed])).toEqual([
      ['cp.create-answers-200', true, []],
      ['eu.no-window-check', true, []],
      ['as.search-offset-ignored', false, ['AS-SRCH-002 not run']],
    ]);
    expect(run.recall).toBeCloseTo(2 / 3);
    expect(run.outside).toEqual([]);
  }, 300_000);
});
