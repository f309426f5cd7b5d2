// Scores as every format shows them: passed out of applicable, where applicable leaves out
// the requirements that were skipped (excluded) or not applicable to the target.
import type { Level } from '../catalogue.ts';
import { INTERFACES, type InterfaceName } from '../profile/profile.ts';
import type { ComplianceReport, Counts, RequirementResult } from './compliance.ts';

export interface Score {
  passed: number;
  applicable: number;
}

export function scoreOf(counts: Counts): Score {
  return { passed: counts.passed, applicable: counts.passed + counts.failed + counts['expected-failure'] + counts.untested };
}

/** `118/120 (98%)`, or `—` when nothing applied. */
export function formatScore({ passed, applicable }: Score): string {
  if (applicable === 0) return '—';
  return `${passed}/${applicable} (${Math.floor((passed / applicable) * 100)}%)`;
}

export function requirementsOf(report: ComplianceReport, iface: InterfaceName, level: Level): RequirementResult[] {
  return report.requirements.filter((r) => r.interface === iface && r.level === level);
}

/** Score of the requirements of one interface at one level. */
export function cellScore(report: ComplianceReport, iface: InterfaceName, level: Level): Score {
  const list = requirementsOf(report, iface, level);
  const applicable = list.filter((r) => r.status !== 'skipped' && r.status !== 'not-applicable');
  return { passed: applicable.filter((r) => r.status === 'passed').length, applicable: applicable.length };
}

/** The interfaces the report covers, in the spec's order. */
export function interfacesOf(report: ComplianceReport): InterfaceName[] {
  return INTERFACES.filter((i) => report.counts.byInterface[i] !== undefined);
}

export const STATUS_LABELS: Record<RequirementResult['status'], string> = {
  passed: 'passed',
  failed: 'failed',
  blocked: 'blocked',
  skipped: 'skipped',
  'not-applicable': 'not applicable',
  'expected-failure': 'expected failure',
  'blocked-by-expected-failure': 'blocked by an expected failure',
  untested: 'untested',
};

export const VERDICT_LABELS: Record<ComplianceReport['verdict'], string> = {
  certified: 'certified',
  passed: 'passed (subset)',
  'no-regressions': 'no regressions against the baseline',
  incomplete: 'incomplete',
  'not-certified': 'not certified',
  error: 'error',
  interrupted: 'interrupted',
};

/** Statuses every count line names even at 0; the others only when present. */
const ALWAYS_COUNTED: readonly RequirementResult['status'][] = ['failed', 'blocked', 'not-applicable'];
const COUNT_ORDER: readonly RequirementResult['status'][] = ['failed', 'blocked', 'expected-failure', 'blocked-by-expected-failure', 'untested', 'not-applicable', 'skipped', 'passed'];

/**
 * `1 failed, 3 blocked, 2 not applicable, 40 passed`: the requirements per status, as the terminal,
 * compliance.md and compliance.html state them (junit.xml and Allure count the same by construction).
 */
export function countsLine(counts: Counts): string {
  return COUNT_ORDER.filter((s) => counts[s] > 0 || ALWAYS_COUNTED.includes(s))
    .map((s) => `${counts[s]} ${STATUS_LABELS[s]}`)
    .join(', ');
}

/**
 * `MUST 120/120` and, when some MUSTs did not apply, ` · 4 MUST n/a`: every format states both. The
 * count says MUST: beside the counts line's "5 not applicable" of every level it reads as a part of
 * it, not as a second, different count.
 */
export function mustLine(report: ComplianceReport): string {
  const na = report.counts.byLevel.MUST['not-applicable'];
  return `MUST ${report.mustScore.passed}/${report.mustScore.applicable}${na > 0 ? ` · ${na} MUST n/a` : ''}`;
}

/** How much of a requirement was checked: `3 checks · 30 of 50 runs`. */
export function checkedLine(r: RequirementResult): string {
  const checks = `${r.checks.ran} check${r.checks.ran === 1 ? '' : 's'}`;
  return r.cases ? `${checks} · ${r.cases.ran} of ${r.cases.asked} runs` : checks;
}

/** Run length as `1 min 42 s`. */
export function duration(report: ComplianceReport): string {
  const seconds = Math.max(0, Math.round((Date.parse(report.endedAt) - Date.parse(report.startedAt)) / 1000));
  return seconds >= 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds} s`;
}
