// apc selftest certifies its subjects side by side in one process, their suites in shared vitest
// runs: one worker process runs the suite files of several subjects, its modules loaded once
// (harness/suite-runner/batches.ts). A mutant that breaks everything (every request but the
// preflight's answered 500) runs beside one that breaks one rule (revisions listed oldest first),
// on the same requirements, in one vitest run with one worker: each must be diagnosed by its own
// fault only, as if it had run alone.
import { expect, test } from 'vitest';
import { loadCatalogue, selector } from '../../harness/catalogue.ts';
import { runSubject, type RunSettings } from '../../harness/selftest/run-subject.ts';
import { selftestSubjects } from '../../harness/selftest/subject-list.ts';
import type { Mutant } from '../../harness/selftest/subjects.ts';
import { SuiteBatches } from '../../harness/suite-runner/batches.ts';

const scope = ['CP-READ-*', 'CP-REVL-*'];

const everythingBroken: Mutant = {
  kind: 'mutant',
  id: 'isolation.everything-500',
  what: 'Every request but the preflight probe (`GET /v2/deployments`) is answered 500.',
  interface: 'control-plane',
  family: 'errors',
  catches: ['CP-READ-003'],
  scope,
  proxy: () => ({
    request: (r) =>
      r.method === 'GET' && r.path === '/v2/deployments' ? r : { status: 500, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"detail":"everything is broken"}') },
  }),
};

const oneRule = { ...(selftestSubjects().find((s) => s.id === 'cp.revisions-oldest-first') as Mutant), scope };

const settings: RunSettings = { runs: 5, seed: 1, seeds: 1, detectionRuns: 25, timeoutMs: 300_000 };

test('a mutant that breaks everything and one that breaks one rule, side by side, are each diagnosed by their own fault', async () => {
  // One shared run, one worker: the two subjects' files run in the same process, one after another.
  const batches = new SuiteBatches({ lanes: 1, workers: 1, size: 2, gatherMs: 10_000 });
  const shared = { ...settings, batches };
  const [broken, one] = await Promise.all([runSubject(everythingBroken, shared), runSubject(oneRule, shared)]).finally(() => batches.close());
  for (const run of [broken, one]) expect(run.error, run.error).toBeUndefined();
  expect(batches.started).toBe(1);

  // The broken one: nothing in scope passed; every failure and every block is its 500s
  // (or the 404 body they lack), never a listing order.
  const judged = [...broken.failed, ...broken.blocked];
  expect(broken.verdict).toBe('not-certified');
  const inScope = selector(scope);
  expect(judged.map((r) => r.id).sort()).toEqual(loadCatalogue().requirements.filter((r) => inScope(r.id)).map((r) => r.id).sort());
  expect(broken.failed.map((f) => f.id)).toContain('CP-READ-003');
  for (const r of broken.blocked) expect(r.message, r.id).toMatch(/answered 500/);
  for (const r of broken.failed) expect(r.message, r.id).toMatch(/500|404 body/);
  expect(judged.some((r) => /newest first/.test(r.message))).toBe(false);

  // The one-rule mutant: exactly its declared requirement failed, and what it blocked names its
  // own fault; no 500 of its neighbour reached it.
  expect(one.failed.map((f) => f.id)).toEqual(oneRule.catches);
  for (const r of one.blocked) expect(r.message, r.id).toMatch(/newest first/);
  expect([...one.failed, ...one.blocked].some((r) => /500/.test(r.message))).toBe(false);
}, 600_000);
