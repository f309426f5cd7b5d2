// Issue 37's "What was seen" on the reference, each with the fault or proxy that reproduces it:
// the refusal a test meets is recorded under the rule whose statement it breaks; "blocked by"
// names failed rules only; a rule about a result set is blocked, not failed, by the failure that
// emptied its set; a status outside its enum fails its rule wherever it is seen; and the live
// progress prints blocked tests as blocked.
import { expect, test } from 'vitest';
import { editJson } from '../../harness/proxy/proxy.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ComplianceReport } from '../../harness/report/compliance.ts';
import { apcHere } from '../support/apc-here.ts';
import { keptSuiteWorkers } from '../support/certify.ts';
import { certifyThroughProxy } from '../support/proxied-certify.ts';
import { scratchDir } from '../support/scratch.ts';

const kept = keptSuiteWorkers();

/** No blocked requirement names a blocker that did not fail (when the blocker is in the report). */
function expectRootsOnly(report: ComplianceReport, output: string): void {
  const status = (id: string) => report.requirements.find((r) => r.id === id)?.status;
  for (const r of report.requirements.filter((q) => q.status === 'blocked')) {
    for (const by of r.blockedBy ?? []) if (status(by)) expect(status(by), `${r.id} blocked by ${by}\n${output}`).toBe('failed');
  }
}

test('wrong rule is blamed no more: refused stream_mode forms fail AS-SSE-006 and AS-SSE-007, a thread run with no form left is blocked by them; the progress prints it blocked, not ✗', async () => {
  // Thread runs refuse the string form, every run the list form: the run rule has no way left.
  // The command as a user runs it, not quiet: its live progress is what this test reads.
  const dir = scratchDir('stream-mode-forms');
  const faults = ['as.stream-mode-string-refused', 'as.stream-mode-list-refused'].flatMap((f) => ['--reference-fault', f]);
  const run = await apcHere(['certify', '--reports', dir, ...faults, '--requirements', 'AS-RUN-001,AS-SSE-006,AS-SSE-007', '--runs', '3']);
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.code, output).toBe(1);
  const report = JSON.parse(readFileSync(join(dir, 'compliance.json'), 'utf8')) as ComplianceReport;
  const result = (id: string) => report.requirements.find((r) => r.id === id);
  for (const id of ['AS-SSE-006', 'AS-SSE-007']) expect(result(id)?.status, output).toBe('failed');
  expect(
    result('AS-SSE-006')!
      .failures.map((f) => f.message)
      .join('\n'),
    output,
  ).toMatch(/stream_mode given as a string was refused|string form was refused/);
  // The refusal the run rule's test met is the string form's: recorded under AS-SSE-006, and the run rule blocked by it.
  expect(result('AS-RUN-001'), output).toMatchObject({ status: 'blocked', blockedBy: ['AS-SSE-006'] });
  expectRootsOnly(report, output);
  // The live progress: ✗ for the two form rules only; the run rule blocked by its root cause.
  expect(run.stdout.match(/^\s+✗ [A-Z]{2}-/gm), output).toHaveLength(2);
  expect(run.stdout, output).toMatch(/^\s+⊘ blocked by AS-SSE-006 AS-RUN-001 /m);
}, 240_000);

test('echoes reported as failures no more: a search whose filter lists nothing fails AS-SRCH-001 alone; the default-limit and order rules are blocked by it', async () => {
  const run = await certifyThroughProxy({
    // A metadata search answers an empty list, as the third-party server's did.
    through: 'agent-server',
    rules: {
      answer: (request, answer) =>
        request.method === 'POST' && request.path.split('?')[0] === '/assistants/search' && answer.status === 200
          ? { ...answer, body: Buffer.from('[]') }
          : answer,
    },
    args: ['--interfaces', 'agent-server', '--requirements', 'AS-SRCH-*', '--runs', '3'],
    run: kept,
  });
  const output = run.output;
  expect(run.status('AS-SRCH-001'), output).toBe('failed');
  for (const id of ['AS-SRCH-003', 'AS-SRCH-004']) expect(run.result(id), output).toMatchObject({ status: 'blocked', blockedBy: ['AS-SRCH-001'] });
  // Paging's own test needs the whole set (a step of AS-SRCH-001's rule), and the command sequences
  // judge paging only on a listing with members: on the empty set it is neither failed nor passed.
  expect(run.result('AS-SRCH-002'), output).toMatchObject({ status: 'blocked', blockedBy: ['AS-SRCH-001'] });
  // The echo is shown under the rule that explains it.
  expect(
    run
      .result('AS-SRCH-001')!
      .failures.map((f) => f.message)
      .join('\n'),
    output,
  ).toMatch(/Search without limit listed 0 of 11/);
  expectRootsOnly(run.report!, output);
}, 240_000);

test('verdict without a failure no more: failed revisions read BUILD_ERROR (outside the enum) fail CP-REVL-009, though its own test passed; CP-LIFE-003 is blocked by it', async () => {
  const run = await certifyThroughProxy({
    through: 'control-plane',
    rules: {
      answer: (request, answer) =>
        request.method === 'GET' && /\/revisions\/[^/?]+$/.test(request.path.split('?')[0]!) && answer.status === 200
          ? editJson(
              answer,
              (revision) => void (typeof revision.status === 'string' && revision.status.includes('FAILED') && (revision.status = 'BUILD_ERROR')),
            )
          : answer,
    },
    args: ['--interfaces', 'control-plane', '--requirements', 'CP-LIFE-003,CP-REVL-009', '--runs', '3'],
    run: kept,
  });
  const output = run.output;
  expect(run.report?.verdict, output).toBe('not-certified');
  expect(run.status('CP-REVL-009'), output).toBe('failed');
  expect(run.result('CP-REVL-009')!.failures[0]!.message, output).toMatch(/BUILD_ERROR/);
  expect(run.result('CP-LIFE-003'), output).toMatchObject({ status: 'blocked', blockedBy: ['CP-REVL-009'] });
  expect(run.report!.requirements.filter((r) => r.status === 'failed').length, output).toBeGreaterThanOrEqual(1);
}, 240_000);
