// Running `apc certify` on the control plane of the in-repo reference (with fault switches) and
// judging its report: which requirements failed, and for what reason.
import { expect } from 'vitest';
import type { RequirementResult } from '../../../../harness/report/compliance.ts';
import { certify, type CertifyRun } from '../../../support/certify.ts';

export interface ReferenceRun {
  mode: 'hosted' | 'self-hosted';
  faults?: string[];
  requirements: string[];
  seed?: number;
  timeoutMs?: number;
}

/** `apc certify` with no URL: it starts the reference itself, with the given fault switches. */
export function certifyReference(run: ReferenceRun): Promise<CertifyRun> {
  return certify({
    args: [
      '--interfaces', 'control-plane',
      '--control-plane-mode', run.mode,
      '--requirements', run.requirements.join(','),
      '--seed', String(run.seed ?? 1),
      ...(run.faults ?? []).flatMap((fault) => ['--reference-fault', fault]),
    ],
    ...(run.timeoutMs ? { timeoutMs: run.timeoutMs } : {}),
  });
}

/** Every id failed, with a failure whose text matches its pattern (the reason it should fail for). */
export function expectFailed(run: CertifyRun, expected: Record<string, RegExp>): void {
  expect(run.report, `certify wrote no report:\n${run.stderr}\n${run.stdout}`).toBeDefined();
  for (const [id, pattern] of Object.entries(expected)) {
    const result = run.result(id);
    expect(result?.status, `${id} should have failed:\n${JSON.stringify(result, null, 2)}`).toBe('failed');
    const text = result!.failures.map((f) => `${f.message} ${f.expected ?? ''} ${f.seen ?? ''}`).join('\n');
    expect(text, `${id} failed for another reason than expected`).toMatch(pattern);
  }
}

/**
 * The run certified the target: every selected requirement passed, was not applicable or is
 * excluded, except the MAY rules in `mayFail` (field-notes shapes a legitimate variant departs from).
 */
export function expectCertified(run: CertifyRun, mayFail: string[] = []): void {
  expect(run.report, `certify wrote no report:\n${run.stderr}\n${run.stdout}`).toBeDefined();
  const fine = (r: RequirementResult) =>
    r.status === 'passed' || r.status === 'not-applicable' || (r.status === 'skipped' && r.reason?.startsWith('excluded')) || (r.level === 'MAY' && mayFail.includes(r.id));
  const bad = run.report!.requirements.filter((r) => !fine(r));
  expect(bad.map((r) => `${r.id} ${r.status}: ${r.failures.map((f) => f.message).join(' | ') || r.reason}`)).toEqual([]);
  expect(run.report!.verdict, run.stdout).toBe('certified');
  expect(run.code).toBe(0);
}
