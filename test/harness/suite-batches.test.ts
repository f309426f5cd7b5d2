// Certifications whose suites share one vitest run (harness/run/suite-batches.ts, apc selftest)
// stay each their own: one stopped at its bound ends alone, with what it judged before, while
// the other of the same run goes on to the verdict it gets alone.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { SuiteBatches } from '../../harness/run/suite-batches.ts';
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
  ]);
  expect(batches.started).toBe(1);

  expect(stopped.report?.verdict, stopped.stderr).toBe('interrupted');
  expect(stopped.durationMs).toBeLessThan(60_000);

  expect(whole.report?.verdict, whole.stderr).toBe('not-certified');
  const failed = whole.report!.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
  expect(failed).toEqual(oneRule.catches);
  expect(whole.report!.errors).toEqual([]);
}, 300_000);
