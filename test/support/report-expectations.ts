// Judging the report of a self-test's `apc certify` run: which requirements failed, and for what
// reason, or that the target was certified.
import { expect } from 'vitest';
import type { RequirementResult } from '../../harness/report/compliance.ts';
import type { CertifyRun } from './certify.ts';

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
  // A SHOULD or MAY its tests could not judge (and said why) does not count against a certificate.
  const fine = (r: RequirementResult) =>
    r.status === 'passed' ||
    r.status === 'not-applicable' ||
    (r.status === 'skipped' && (r.reason?.startsWith('excluded') || r.level !== 'MUST')) ||
    (r.level === 'MAY' && mayFail.includes(r.id));
  const bad = run.report!.requirements.filter((r) => !fine(r));
  expect(bad.map((r) => `${r.id} ${r.status}: ${r.failures.map((f) => f.message).join(' | ') || r.reason}`)).toEqual([]);
  expect(['certified', 'passed'], run.stdout).toContain(run.report!.verdict);
  expect(run.code).toBe(0);
}
