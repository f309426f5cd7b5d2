// Evidence where the reader looks (docs/reports.md, "Evidence"): every failure a mutant causes
// carries, in its expected and seen values, the fields the rule compares, not bare ids. A sample
// of the selftest's mutants, the first of each rule family, each certified on the requirements it
// must fail (the whole list takes a full `apc selftest`, too slow for this check).
import { afterAll, describe, expect, test } from 'vitest';
import { evidenceProblems } from '../../harness/conformance/evidence.ts';
import { SuiteBatches } from '../../harness/suite-runner/batches.ts';
import { certifyBent } from '../../harness/selftest/run-subject.ts';
import { selftestSubjects } from '../../harness/selftest/subject-list.ts';
import { FAMILIES, type Mutant } from '../../harness/selftest/subjects.ts';

const mutants = selftestSubjects().filter((s): s is Mutant => s.kind === 'mutant');
const sample = FAMILIES.map((family) => mutants.find((m) => m.family === family)).filter((m): m is Mutant => m !== undefined);

describe('the rule', () => {
  test('JSON with field names and text that names the field are evidence; bare ids and bare values are not', () => {
    expect(evidenceProblems({ expected: '[{"id":"a1","created_at":"2026-01-01T00:00:00Z"}]', seen: 'HTTP 404 Deployment ID x not found.' })).toEqual([]);
    expect(evidenceProblems({ expected: 'created_at non-increasing', seen: '{"resources":[]}' })).toEqual([]);
    expect(evidenceProblems({ expected: '["3f0c…","9a1b…"]', seen: '["9a1b…","3f0c…"]' })).toHaveLength(2);
    expect(evidenceProblems({ expected: '8f14e45f-ceea-467f-a0e6-7b3d0b2a9d5e', seen: '42' })).toHaveLength(2);
    expect(evidenceProblems({ seen: '{"detail":"x"}' })).toEqual(['no expected value']);
  });
});

test('the sample covers every rule family of the mutants', () => {
  expect(sample.map((m) => m.family)).toEqual([...FAMILIES]);
});

// Side by side (each mutant is a reference of its own): the file's certifications mostly wait. The
// reference's revisions end in milliseconds, so a deploy timeout of 10 s (not the profile's 30 s)
// is long enough for every one of them and cuts the wait of the mutant whose revisions never end.
const DEPLOY_TIMEOUT = { deployTimeoutMs: '10000' };
// Their suites share vitest runs, as apc selftest's do (harness/suite-runner/batches.ts): a worker's start per mutant was most of their CPU.
const batches = new SuiteBatches({ lanes: 2, workers: 2, size: 8, gatherMs: 500 });
afterAll(() => batches.close());

describe.concurrent.each(sample.map((m) => [m.id, m] as const))('mutant %s', (_id, mutant) => {
  test('each failure on a requirement it must fail names the compared field in expected and seen', async () => {
    const run = await certifyBent({ ...mutant, scope: mutant.catches }, { runs: 10, seed: 1, seeds: 1, detectionRuns: 25, timeoutMs: 240_000, batches }, DEPLOY_TIMEOUT);
    const failures = (run.report?.requirements ?? []).filter((r) => r.status === 'failed').flatMap((r) => r.failures.map((f) => ({ id: r.id, f })));
    expect(failures.length, run.stdout + run.stderr).toBeGreaterThan(0);
    const problems = failures.flatMap(({ id, f }) => evidenceProblems(f).map((p) => `${id} "${f.message}": ${p}`));
    expect(problems).toEqual([]);
  }, 300_000);
});
