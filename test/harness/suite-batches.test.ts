// Certifications whose suites share one vitest run (harness/suite-runner/batches.ts, apc selftest)
// stay each their own: one stopped at its bound ends alone, with what it judged before, while
// the other of the same run goes on to the verdict it gets alone.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { SuiteBatches } from '../../harness/suite-runner/batches.ts';
import { certifyBent, type RunSettings } from '../../harness/selftest/run-subject.ts';
import { selftestSubjects } from '../../harness/selftest/subject-list.ts';
import type { Mutant, Variation } from '../../harness/selftest/subjects.ts';

const oneRule = { ...(selftestSubjects().find((s) => s.id === 'cp.revisions-oldest-first') as Mutant), scope: ['CP-REVL-*'] };

/** The reference behind a proxy that answers each request after a second: its run cannot end within a few seconds. */
const slow: Variation = {
  kind: 'variation',
  id: 'batches.slow',
  what: 'Every answer a second late.',
  interface: 'control-plane',
  scope: ['CP-READ-*', 'CP-REVL-*'],
  proxy: () => ({
    request: async (r) => {
      await sleep(1000);
      return r;
    },
  }),
};

const settings: RunSettings = { runs: 5, seed: 1, seeds: 1, detectionRuns: 5, timeoutMs: 300_000 };

test('in one shared vitest run, a certification stopped at its bound ends alone and the other gets its own verdict', async () => {
  const batches = new SuiteBatches({ lanes: 1, workers: 1, size: 2, gatherMs: 10_000 });
  const [stopped, whole] = await Promise.all([
    certifyBent(slow, { ...settings, timeoutMs: 8_000, batches }),
    certifyBent(oneRule, { ...settings, batches }),
  ]).finally(() => batches.close());
  expect(batches.started).toBe(1);

  expect(stopped.report?.verdict, stopped.stderr).toBe('interrupted');
  expect(stopped.durationMs).toBeLessThan(60_000);

  expect(whole.report?.verdict, whole.stderr).toBe('not-certified');
  const failed = whole.report!.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
  expect(failed).toEqual(oneRule.catches);
  expect(whole.report!.errors).toEqual([]);
}, 300_000);

/** The reference as it is: it must pass. */
const reference: Variation = { kind: 'variation', id: 'batches.reference', what: 'The reference unchanged.', interface: 'control-plane', scope: oneRule.scope };

test('a lane keeps its vitest instance and its worker, and a file id that ran in an earlier batch runs the later batch’s certification', async () => {
  // Batches of one, one after another: both certifications' files are `<suite>.suite.ts?apc-run=0`, in one vitest instance.
  const batches = SuiteBatches.alone(1);
  let broken, clean;
  try {
    broken = await certifyBent(oneRule, { ...settings, batches });
    clean = await certifyBent(reference, { ...settings, batches });
  } finally {
    await batches.close();
  }
  expect(batches.started).toBe(2);
  expect(batches.instances).toBe(1);
  // And one worker process: the second run's worker is the first's, its modules loaded, the suite files run again.
  expect(batches.workers.started).toBe(1);

  expect(broken.report?.verdict, broken.stderr).toBe('not-certified');
  expect(broken.report!.requirements.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual(oneRule.catches);
  // Its own target, checked again: had the file answered with the mutant's context, or run no test, the rules would not all have passed.
  expect(clean.report?.verdict, clean.stderr).toBe('passed');
  expect(clean.report!.requirements.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}`)).toEqual([]);
  for (const run of [broken, clean]) expect(run.report!.errors).toEqual([]);
}, 300_000);

test('a run cut short leaves no worker for the next batch, which starts its own and gets its own verdict', async () => {
  const batches = SuiteBatches.alone(1);
  let stopped, after;
  try {
    // Alone in its batch, so its stop cuts the run: what its tests had under way dies with the worker.
    stopped = await certifyBent(slow, { ...settings, timeoutMs: 8_000, batches });
    after = await certifyBent(oneRule, { ...settings, batches });
  } finally {
    await batches.close();
  }
  expect(stopped.report?.verdict, stopped.stderr).toBe('interrupted');
  expect(batches.instances).toBe(2);
  expect(batches.workers.started).toBe(2);
  expect(after.report?.verdict, after.stderr).toBe('not-certified');
  expect(after.report!.requirements.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual(oneRule.catches);
  expect(after.report!.errors).toEqual([]);
}, 300_000);
