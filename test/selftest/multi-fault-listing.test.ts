// A combination the full multi-fault selftest once scored at 75%: a PATCH answering 202 beside a
// revisions listing that is a bare array. The concurrency rule's test read the listing before its
// PATCHes, so the listing's failure (CP-REVL-001) hid the 202 (CP-CONC-001) behind "blocked".
// Certified on its components' requirements alone, every component is found and nothing outside fails.
import { expect, test } from 'vitest';
import { COMBINATIONS } from '../../harness/selftest/multi-fault/combinations.ts';
import { componentsOf, runCombination } from '../../harness/selftest/multi-fault/run-combination.ts';
import type { RunSettings } from '../../harness/selftest/run-subject.ts';
import { selftestSubjects } from '../../harness/selftest/subject-list.ts';
import { keptSuiteWorkers } from '../support/certify.ts';

const mutants = new Map(selftestSubjects().flatMap((s) => (s.kind === 'mutant' ? [[s.id, s] as const] : [])));
// The test process's kept suite worker (test/support/certify.ts), shared with its other files.
const batches = keptSuiteWorkers().suites;
const settings: RunSettings = { runs: 3, seed: 1, seeds: 1, detectionRuns: 3, timeoutMs: 240_000, batches };

test('a PATCH answering 202 is found under CP-CONC-001 though the revisions listing is unreadable', async () => {
  const combination = COMBINATIONS.find((c) => c.id === 'mf.patch-status-listing-tenants')!;
  const components = componentsOf(combination, mutants);
  const scope = [...new Set(components.flatMap((m) => m.catches))];
  expect(scope).toContain('CP-CONC-001');
  const run = await runCombination(combination, components, settings, scope);
  expect(run.error).toBeUndefined();
  expect(run.components.filter((c) => !c.found).map((c) => [c.id, c.notFailed])).toEqual([]);
  expect(run.recall).toBe(1);
  expect(run.outside).toEqual([]);
}, 300_000);
