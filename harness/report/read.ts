// Reads a report folder back (for `apc report merge` and `apc certify --replay`): its
// compliance.json must exist and match the schema, or the error says what to do.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { complianceReportProblems } from '../../schemas/compliance-report.ts';
import type { ComplianceReport } from './compliance.ts';
import { UsageError } from '../usage-error.ts';

export class ReportError extends UsageError {}

/**
 * A report written before a status existed has no count of it: the count is 0. Last night's report
 * stays readable by `apc report diff` after an upgrade of the harness.
 */
function upgraded(value: unknown): unknown {
  const counts = (value as { counts?: { total?: unknown; byLevel?: Record<string, unknown>; byInterface?: Record<string, unknown> } } | null)?.counts;
  if (!counts || typeof counts !== 'object') return value;
  const all = [counts.total, ...Object.values(counts.byLevel ?? {}), ...Object.values(counts.byInterface ?? {})];
  for (const c of all) if (c && typeof c === 'object' && !('blocked-by-expected-failure' in c)) (c as Record<string, number>)['blocked-by-expected-failure'] = 0;
  return value;
}

export function readReport(dir: string): ComplianceReport {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ReportError(`${dir}: expected a report folder written by \`apc certify\`, but it is not a folder.`);
  }
  const file = join(dir, 'compliance.json');
  if (!existsSync(file)) {
    throw new ReportError(`${dir}: expected a report folder written by \`apc certify\`, but it has no compliance.json.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ReportError(`${file}: not valid JSON (${(error as Error).message}); was the run interrupted while writing it?`);
  }
  const problems = complianceReportProblems(upgraded(value));
  if (problems.length > 0) {
    throw new ReportError(`${file}: does not match the compliance report schema (schemas/compliance-report.ts): ${problems.slice(0, 3).join('; ')}.`);
  }
  return value as ComplianceReport;
}
