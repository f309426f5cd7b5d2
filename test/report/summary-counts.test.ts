// The terminal summary states the number of not-applicable requirements once (the counts line):
// the verdict's reason and the closing hint no longer add counts of their own that differ from it.
import { expect, test } from 'vitest';
import { countsOf, universeOf, verdictOf, type ComplianceReport } from '../../harness/report/compliance.ts';
import { Progress } from '../../harness/run/progress.ts';
import { CATALOGUE, sampleReport } from './support/sample-report.ts';

function summary(report: ComplianceReport): string {
  let out = '';
  new Progress({ write: (text) => (out += text) }).summary(report, 'reports/x');
  return out;
}

test('a certified run with not-applicable requirements: one count of them in the summary', () => {
  const sample = sampleReport();
  const requirements = sample.requirements.map((r) => (r.status === 'failed' ? { ...r, status: 'passed' as const, failures: [] } : r));
  expect(requirements.some((r) => r.status === 'not-applicable' && r.level === 'MUST')).toBe(true);
  const { verdict, reason, mustScore } = verdictOf(requirements, [], universeOf(CATALOGUE));
  expect(verdict).toBe('certified');
  expect(reason).not.toMatch(/\d+ not applicable/);
  const text = summary({ ...sample, requirements, verdict, verdictReason: reason, mustScore });
  expect(text.match(/\d+ not applicable/g)).toHaveLength(1);
  expect(text).toContain('not applicable: requirements that need capabilities the profile does not declare');
});

test('not-applicable MUSTs and requirements of every level: the verdict line says MUST, so the two counts never read as one that differs', () => {
  const sample = sampleReport();
  const requirements = sample.requirements.map((r) =>
    r.status === 'failed'
      ? { ...r, status: 'passed' as const, failures: [] }
      : r.id === 'CP-DEP-003'
        ? { ...r, status: 'not-applicable' as const, failures: [], reason: 'needs x' }
        : r,
  );
  const { verdict, reason, mustScore } = verdictOf(requirements, [], universeOf(CATALOGUE));
  const counts = countsOf(requirements);
  const mustNa = counts.byLevel.MUST['not-applicable'];
  expect(counts.total['not-applicable']).toBeGreaterThan(mustNa);
  const text = summary({ ...sample, requirements, counts, verdict, verdictReason: reason, mustScore });
  expect(text).toContain(`· ${mustNa} MUST n/a`);
  expect(text).toContain(`${counts.total['not-applicable']} not applicable`);
  // No other count of them: each number of not-applicable requirements names its scope.
  expect(text.match(/\d+ (?:MUST )?n\/a|\d+ not applicable/g)).toEqual([`${mustNa} MUST n/a`, `${counts.total['not-applicable']} not applicable`]);
});
