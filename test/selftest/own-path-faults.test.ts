// Faults seen on a third-party agent server and on proxies written outside this project (issue
// "Every deviation in one run"), each reproduced by a mutant of apc selftest: certified on the
// requirements it touches, it fails exactly the rules it breaks, whichever other rule's usual
// path it takes away; the reference passes the same requirements. One kept suite worker for the
// file: each certification is one interface, a few requirements.
import { afterAll, describe, expect, test } from 'vitest';
import { SuiteBatches } from '../../harness/suite-runner/batches.ts';
import { runSubject, type RunSettings } from '../../harness/selftest/run-subject.ts';
import { selftestSubjects } from '../../harness/selftest/subject-list.ts';
import type { Mutant } from '../../harness/selftest/subjects.ts';

const batches = SuiteBatches.alone(1);
afterAll(() => batches.close());
const settings: RunSettings = { runs: 3, seed: 1, seeds: 1, detectionRuns: 3, timeoutMs: 240_000, batches };

const mutants = new Map(selftestSubjects().flatMap((s) => (s.kind === 'mutant' ? [[s.id, s] as const] : [])));

/** A mutant, the requirements it is certified on, and those it must fail (its own `catches`). */
const CASES: [mutant: string, scope: string[]][] = [
  // Spec 6: "Each event has an `event:` line naming the kind". Every stream is broken, so every
  // other stream rule is blocked by AS-SSE-002.
  ['as.event-kind-in-payload', ['AS-SSE-*', 'AS-RUN-003']],
];

describe.each(CASES)('%s', (id, scope) => {
  test('fails exactly the requirements it breaks; the reference passes them', async () => {
    const mutant = mutants.get(id);
    expect(mutant, `${id} is no mutant of apc selftest`).toBeDefined();
    const broken = await runSubject({ ...mutant!, scope } satisfies Mutant, settings);
    expect(broken.error).toBeUndefined();
    expect(broken.failed.map((f) => f.id).sort()).toEqual([...mutant!.catches].sort());
    const reference = await runSubject({ kind: 'variation', id: 'reference', what: 'the reference as it is', interface: mutant!.interface, scope }, settings);
    expect(reference.failed).toEqual([]);
  }, 480_000);
});
