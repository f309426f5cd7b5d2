// Writes a report folder. compliance.json is the source of truth; every other format is
// rendered from it, so a merged or replayed report renders the same way.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ComplianceReport } from './compliance.ts';

export type ReportWriter = (dir: string, report: ComplianceReport) => void;

const writeJson: ReportWriter = (dir, report) => {
  writeFileSync(join(dir, 'compliance.json'), `${JSON.stringify(report, null, 2)}\n`);
};

export const WRITERS: ReportWriter[] = [writeJson];

export function writeReports(dir: string, report: ComplianceReport): void {
  for (const write of WRITERS) write(dir, report);
}
