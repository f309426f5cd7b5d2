// Writes a report folder. compliance.json is the source of truth; every other format is
// rendered from it, so a merged or replayed report renders the same way, and every format counts
// the same failed, blocked, expected-failure and not-applicable requirements.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAllureResults } from './allure.ts';
import { renderBadge } from './badge.ts';
import type { ComplianceReport } from './compliance.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';

export type ReportWriter = (dir: string, report: ComplianceReport) => void;

const writeJson: ReportWriter = (dir, report) => {
  writeFileSync(join(dir, 'compliance.json'), `${JSON.stringify(report, null, 2)}\n`);
};

const rendered =
  (file: string, render: (report: ComplianceReport) => string): ReportWriter =>
  (dir, report) =>
    writeFileSync(join(dir, file), render(report));

export const WRITERS: ReportWriter[] = [
  writeJson,
  rendered('compliance.md', renderMarkdown),
  rendered('compliance.html', renderHtml),
  rendered('junit.xml', renderJunit),
  rendered('badge.svg', renderBadge),
];

/** Every format; `allure: false` leaves out allure-results (apc selftest reads only compliance.json). */
export function writeReports(dir: string, report: ComplianceReport, options: { allure?: boolean } = {}): void {
  for (const write of WRITERS) write(dir, report);
  if (options.allure !== false) writeAllureResults(dir, report);
}
