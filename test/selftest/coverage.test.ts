// Every MUST requirement that can be observed through the spec's interfaces (every MUST the
// catalogue does not exclude) is declared by at least one mutant, so the selftest
// (selftest.test.ts) proves the harness catches its breakage. Mutant ids are unique.
import { expect, test } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.ts';
import { selftestSubjects, WAITS_OUT } from '../../harness/selftest/subject-list.ts';
import { FAMILIES, isGenerated, type Mutant } from '../../harness/selftest/subjects.ts';

const catalogue = loadCatalogue();
const subjects = selftestSubjects();
// Generated mutants (mutants/spec-derived/) are caught by any failure; coverage counts the hand-written ones.
const mutants = subjects.filter((s): s is Mutant => s.kind === 'mutant' && !isGenerated(s));

test('every observable MUST requirement is declared by a mutant', () => {
  const excluded = new Set(catalogue.exclusions.map((e) => e.id).filter(Boolean));
  const declared = new Set(mutants.flatMap((m) => m.catches));
  const uncovered = catalogue.requirements.filter((r) => r.level === 'MUST' && !excluded.has(r.id) && !declared.has(r.id)).map((r) => r.id);
  expect(uncovered).toEqual([]);
});

test('mutants declare catalogue ids; subject ids are unique', () => {
  const ids = new Set(catalogue.requirements.map((r) => r.id));
  expect(mutants.flatMap((m) => m.catches).filter((id) => !ids.has(id))).toEqual([]);
  expect(subjects.map((s) => s.id).filter((id, i, all) => all.indexOf(id) !== i)).toEqual([]);
});

test('the subjects listed as waiting out deadlines (certified alone) exist', () => {
  expect(WAITS_OUT.filter((id) => !subjects.some((s) => s.id === id))).toEqual([]);
});

test('the families the issue names each have several mutants', () => {
  const counts = Object.fromEntries(FAMILIES.map((f) => [f, mutants.filter((m) => m.family === f).length]));
  for (const family of ['revision triggers', 'immutability', 'listing', 'deletion', 'errors', 'keys and tenants', 'resource_spec', 'assistant versions', 'sse', 'experiments'] as const) {
    expect(counts[family], family).toBeGreaterThanOrEqual(2);
  }
});
