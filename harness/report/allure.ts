// allure-results/ of a report: one Allure result per requirement, rendered from compliance.json
// like every other format, so Allure counts what compliance.html, compliance.md, junit.xml and the
// terminal count (a test that stops at one requirement's check does not show as several failures).
// `apc report allure` renders the folder to HTML (no Java needed). Each result is labelled with the
// interface as epic, the requirement family as feature, the id as story and `requirement` label,
// the level as tag and a severity from the level; the apc status is a label too, and the message
// of a skipped result starts with it.
//   passed                      → passed
//   failed                      → failed, with expected and seen side by side
//   untested                    → broken: a MUST without a test fails the verdict
//   blocked, expected-failure, blocked-by-expected-failure, not-applicable, skipped → skipped
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Level } from '../catalogue.ts';
import type { ComplianceReport, RequirementResult } from './compliance.ts';
import { tallyLines } from '../http/throttling.ts';
import { reproductionLines } from './reproduction.ts';
import { STATUS_LABELS } from './scores.ts';
import { alsoSeenLines } from './also-seen.ts';
import { switchedOnLine } from './switched-on.ts';

const SEVERITY: Record<Level, string> = { MUST: 'critical', SHOULD: 'normal', MAY: 'minor' };

type AllureStatus = 'passed' | 'failed' | 'broken' | 'skipped';

const fence = (text: string, info = '') => {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${info}\n${text}\n${ticks}`;
};

/** A stable uuid per run and requirement: rendering a report twice writes the same files. */
function uuidOf(runId: string, id: string): string {
  const hex = createHash('sha256').update(`${runId}:${id}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function allureStatus(r: RequirementResult): AllureStatus {
  if (r.status === 'passed' || r.status === 'failed') return r.status;
  return r.status === 'untested' ? 'broken' : 'skipped';
}

/** Why a result that is not a plain pass or failure is what it is; it starts with the apc status. */
function skipMessage(r: RequirementResult): string {
  const blockers = (r.blockedBy ?? []).join(', ');
  switch (r.status) {
    case 'blocked':
      return [`blocked: not judged, its test stopped at a failure explained by ${blockers}`, ...alsoSeenLines(r)].join(' · ');
    case 'blocked-by-expected-failure':
      return `blocked by an expected failure (baseline): not judged, its test stopped at the expected failure of ${blockers}`;
    case 'expected-failure':
      return `expected failure (baseline): ${r.reason ?? ''}`;
    case 'not-applicable':
      return `not applicable: ${r.reason ?? `needs ${(r.needs ?? []).join(', ')}`}`;
    default:
      return `${STATUS_LABELS[r.status]}: ${r.reason ?? ''}`;
  }
}

function description(report: ComplianceReport, r: RequirementResult): string {
  const parts = [
    `**${r.id}** (${r.level}, spec section ${r.section}): ${r.statement}`,
    `Status: ${STATUS_LABELS[r.status]}. Checked by: ${r.tests.join(' | ') || 'no test'}.`,
  ];
  if (r.reason) parts.push(r.reason);
  for (const f of r.failures) {
    parts.push(`**${f.message}**`);
    if (f.expected !== undefined) parts.push('Expected:', fence(f.expected, 'json'));
    if (f.seen !== undefined) parts.push('Seen:', fence(f.seen, 'json'));
    if (f.input !== undefined)
      parts.push(`Generated input${f.seed !== undefined ? ` (seed ${f.seed}${f.path ? `, path ${f.path}` : ''})` : ''}:`, fence(f.input, 'json'));
    for (const line of reproductionLines(report, f)) parts.push(line.label, fence(line.text, 'sh'));
    f.exchanges.forEach((e, i) => parts.push(`Exchange ${i + 1} of ${f.exchanges.length}:`, fence(`${e.curl}\n\n${e.response}`, 'sh')));
  }
  return parts.join('\n\n');
}

function result(report: ComplianceReport, r: RequirementResult, start: number, stop: number) {
  const status = allureStatus(r);
  const failure = r.failures[0];
  const statusDetails =
    status === 'failed' && failure
      ? {
          message: failure.message,
          ...(failure.expected !== undefined ? { expected: failure.expected } : {}),
          ...(failure.seen !== undefined ? { actual: failure.seen } : {}),
        }
      : status === 'passed'
        ? {}
        : { message: skipMessage(r) };
  return {
    uuid: uuidOf(report.runId, r.id),
    historyId: r.id,
    testCaseId: r.id,
    name: `${r.id} ${r.statement}`,
    fullName: `${r.interface}#${r.id}`,
    status,
    statusDetails,
    stage: 'finished',
    steps: [],
    attachments: [],
    parameters: [],
    links: [],
    labels: [
      { name: 'epic', value: r.interface },
      { name: 'feature', value: r.id.replace(/-\d{3}$/, '') },
      { name: 'story', value: r.id },
      { name: 'severity', value: SEVERITY[r.level] },
      { name: 'tag', value: r.level },
      { name: 'requirement', value: r.id },
      { name: 'apc-status', value: r.status },
    ],
    start,
    stop,
    description: description(report, r),
  };
}

/** Writes `<dir>/allure-results`: one result per requirement, and the run's environment. */
export function writeAllureResults(dir: string, report: ComplianceReport): void {
  const out = join(dir, 'allure-results');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const start = Date.parse(report.startedAt);
  const stop = Date.parse(report.endedAt);
  for (const r of report.requirements) {
    const value = result(report, r, start, stop);
    writeFileSync(join(out, `${value.uuid}-result.json`), `${JSON.stringify(value, null, 2)}\n`);
  }
  const environment = [
    `run-id=${report.runId}`,
    `seed=${report.seed}`,
    `verdict=${report.verdict}`,
    ...Object.entries(report.target.urls).map(([i, url]) => `${i}=${url}`),
    // The reference with faults or platform-like behaviours on is not the reference as it ships.
    ...(switchedOnLine(report.target) ? [`switched-on=${switchedOnLine(report.target)}`] : []),
    // Throttling and transient errors the run waited out: the target's environment.
    ...tallyLines(report.transient).map((line) => `waited.${line.replace(/:.*/, '')} = ${line.replace(/^[^:]*: /, '')}`),
  ];
  writeFileSync(join(out, 'environment.properties'), `${environment.join('\n')}\n`);
}
