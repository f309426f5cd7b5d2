// The nightly diff compares failure messages without the ids a run makes up: each night creates new
// deployments (a target-generated id) with new names (the run's prefix), so the same failure names
// other ids. Such messages are no "changed message"; a message that changes in anything else is.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { comparableMessage } from '../../harness/report/comparable-message.ts';
import { diffMarkdown, diffReports } from '../../harness/report/diff.ts';
import { certifyHere, keptSuiteWorkers } from '../support/certify.ts';
import { scratchDir } from '../support/scratch.ts';
import { hostileFailure, sampleReport } from './support/sample-report.ts';

const suites = keptSuiteWorkers();

/** Two nights of the sample report whose CP-DEP-003 fails with the given messages. */
function nights(before: string, after: string) {
  const night = (message: string, runId: string) => {
    const report = structuredClone(sampleReport({ runId }));
    Object.assign(
      report.requirements.find((r) => r.id === 'CP-DEP-003')!,
      { status: 'failed', failures: [{ ...hostileFailure('CP-DEP-003'), message }] },
    );
    return report;
  };
  return diffReports(night(before, 'apc-1a2b3c'), night(after, 'apc-4d5e6f'));
}

describe('messages compared without run-unique ids', () => {
  test.each([
    [
      'a target UUID',
      'GET /v2/deployments/13e4880f-5e63-45c3-82a8-e60f14d54b19 answered 200.',
      'GET /v2/deployments/199798EA-202B-4A4E-B7DF-FD4A7CA61DB9 answered 200.',
    ],
    [
      'a UUID cut short in a quoted body',
      'An updates event maps "messages" to [{"content":"apc-bf4343-sse-dc120","id":"a98d5776-88a9-4df3-a4a6-6c6, which is not an object.',
      'An updates event maps "messages" to [{"content":"apc-ce839b-sse-dsh5k","id":"3e299788-944a-460c-9d6a-246, which is not an object.',
    ],
    ['a run-suffixed name', 'Deployment apc-1a2b3c-dep-7k2 kept its name.', 'Deployment apc-4d5e6f-dep-9zz1 kept its name.'],
    ['a run id alone', 'Leftover of apc-1a2b3c.', 'Leftover of apc-4d5e6f.'],
    ['a long generated id', 'Assistant asst_01HZX8K4M2Q7 is not version 1.', 'Assistant asst_01J0A9B3C5D1 is not version 1.'],
    ['a 24-digit object id', 'Thread 65f1c2a9b8e7d6c5b4a39281 stayed busy.', 'Thread 65f1c2a9b8e7d6c5b4a39999 stayed busy.'],
  ])('%s: no changed message', (_kind, before, after) => {
    expect(comparableMessage(before)).toBe(comparableMessage(after));
    expect(nights(before, after).changedMessages).toEqual([]);
    expect(diffMarkdown(nights(before, after))).toContain('No change.');
  });

  test.each([
    [
      'a status code',
      'GET /v2/deployments/13e4880f-5e63-45c3-82a8-e60f14d54b19 answered 200.',
      'GET /v2/deployments/199798ea-202b-4a4e-b7df-fd4a7ca61db9 answered 500.',
    ],
    ['a rule id', 'Blocked by CP-REV-001.', 'Blocked by CP-REV-002.'],
    ['a status', 'Its last status was "BUILDING".', 'Its last status was "DEPLOYING".'],
    ['a short number', 'Expected 3 revisions, saw 2.', 'Expected 3 revisions, saw 4.'],
  ])('a change of %s is a changed message, shown with the ids as they were', (_kind, before, after) => {
    const diff = nights(before, after);
    expect(diff.changedMessages).toEqual([{ id: 'CP-DEP-003', level: 'SHOULD', before, after }]);
  });

  test('two real nights with different seeds and one fault switched on: no changed message', { timeout: 300_000 }, async () => {
    const dir = scratchDir('diff-run-ids');
    const night = (seed: string) =>
      certifyHere(
        {
          args: ['--interfaces', 'control-plane', '--requirements', 'CP-TEN-*,CP-DEL-*', '--reference-fault', 'cp.tenant-leak', '--seed', seed],
          reportDir: join(dir, seed),
        },
        suites,
      );
    const first = await night('1');
    const second = await night('2');
    const message = (run: typeof first) => run.report?.requirements.find((r) => r.id === 'CP-TEN-001')?.failures[0]?.message;
    // The fault's failure names a different deployment each night: the case the diff must not list.
    expect(message(first), first.stdout + first.stderr).toMatch(/deployments\/[0-9a-f-]{36}/);
    expect(message(second)).not.toBe(message(first));
    const diff = diffReports(first.report!, second.report!);
    expect(diff.changedMessages).toEqual([]);
    expect(diffMarkdown(diff)).not.toContain('changed message');
  });

  test('failures whose cases are generated (a tag ref, an object path, a row outside a window) read the same under two seeds', { timeout: 300_000 }, async () => {
    const dir = scratchDir('diff-generated-cases');
    const rules = ['CP-TAG-003', 'CP-TAG-004', 'CP-TAR-002', 'EU-TW-003'];
    const faults = ['cp.tag-build-on-push-accepted', 'cp.arbitrary-tarball-accepted', 'eu.no-window-check'];
    const night = (seed: string) =>
      certifyHere(
        {
          args: ['--interfaces', 'control-plane,experiment-upload', '--requirements', rules.join(','), ...faults.flatMap((f) => ['--reference-fault', f]), '--seed', seed],
          reportDir: join(dir, seed),
        },
        suites,
      );
    const first = await night('1');
    const second = await night('2');
    for (const run of [first, second]) for (const id of rules) expect(run.status(id), `${id}\n${run.stdout}`).toBe('failed');
    const diff = diffReports(first.report!, second.report!);
    expect(diff.changedMessages).toEqual([]);
  });
});
