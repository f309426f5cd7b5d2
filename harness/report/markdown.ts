// compliance.md: what a reviewer reads in a minute. Verdict first, then scores per level and
// interface, then each failed requirement with what was expected, what was seen and how to see
// it again, then the full matrix, then the rules that did not apply and why.
import { LEVELS } from '../catalogue.ts';
import { failureLine, type FailureRecord } from '../conformance/failure.ts';
import type { ComplianceReport, RequirementResult } from './compliance.ts';
import { reproductionLines } from './reproduction.ts';
import { switchedOnLine } from './switched-on.ts';
import { cellScore, checkedLine, countsLine, duration, formatScore, interfacesOf, mustLine, scoreOf, STATUS_LABELS, VERDICT_LABELS } from './scores.ts';
import { tallyLines } from '../http/throttling.ts';
import { costLines } from '../conformance/created.ts';
import { alsoSeenLines, foundInLine } from './also-seen.ts';
import { learnedLines } from '../conformance/learned.ts';

/**
 * Inline text on one line, with the characters that would start markup escaped. Underscores
 * inside words (`assistant_id`) stay as they are: they never start emphasis.
 */
export function text(value: string): string {
  return value
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/[\\`*[\]|~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\$&')
    .replace(/^#/, '\\#')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function longestRun(value: string, char: string): number {
  let longest = 0;
  for (const match of value.matchAll(new RegExp(`${char}+`, 'g'))) longest = Math.max(longest, match[0].length);
  return longest;
}

/** An inline code span that holds any text (a longer backtick fence than any run inside). */
function code(value: string): string {
  const flat = value.replace(/[\r\n]+/g, ' ');
  const ticks = '`'.repeat(longestRun(flat, '`') + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** A fenced block that holds any text. */
function block(value: string, info = ''): string {
  const fence = '`'.repeat(Math.max(3, longestRun(value, '`') + 1));
  return `${fence}${info}\n${value}\n${fence}`;
}

/** Short single-line values inline, the rest as a block. */
function value(label: string, v: string): string {
  return v.length <= 100 && !/[\r\n]/.test(v) ? `${label}: ${code(v)}` : `${label}:\n\n${block(v, 'text')}`;
}

/** The mark of each status in the Markdown tables (compliance.md, matrix.md). */
export const MARKS: Record<RequirementResult['status'], string> = {
  passed: '✓',
  failed: '✗',
  blocked: '⊘',
  'expected-failure': '≈',
  'blocked-by-expected-failure': '≈',
  'not-applicable': '–',
  skipped: '–',
  untested: '?',
};

function header(report: ComplianceReport): string[] {
  const verdict = VERDICT_LABELS[report.verdict].toUpperCase();
  const levels = LEVELS.map((l) => `${l} ${formatScore(scoreOf(report.counts.byLevel[l]))}`).join(' · ');
  const urls = interfacesOf(report)
    .map((i) => `${i} ${code(report.target.urls[i] ?? '(no URL)')}`)
    .join(', ');
  const kind = report.target.reference ? 'the in-repo reference implementation' : 'the implementation under test';
  const switched = switchedOnLine(report.target);
  const run = [
    `${code(report.runId)}`,
    `seed ${code(String(report.seed))}`,
    report.shard ? `shard ${report.shard.index}/${report.shard.count}` : '',
    report.mergedFrom ? `merged from ${report.mergedFrom.map(code).join(', ')}` : '',
    report.replayOf ? `replay of ${code(report.replayOf)}` : '',
    `started ${report.startedAt}`,
    `took ${duration(report)}`,
  ].filter(Boolean);
  return [
    `# Compliance report: ${verdict}`,
    '',
    `> **Verdict: ${verdict}** (${mustLine(report)}). ${text(report.verdictReason)}`,
    '',
    `**${levels}** — ${countsLine(report.counts.total)}; ${report.requirements.length} requirements.`,
    '',
    `- **Target:** ${kind}, control plane mode ${code(report.target.controlPlaneMode)}: ${urls}${switched ? `; ${text(switched)}` : ''}`,
    `- **Run:** ${run.join(', ')}`,
    ...tallyLines(report.transient).map((line) => `- **Throttling and transient errors waited out:** ${text(line)}`),
    ...costLines(report.cost).map((line) => `- **Created on the target:** ${text(line)}`),
    ...learnedLines(report.learned).map((line) => `- **Learned at run time:** ${text(line)}`),
    `- **Harness** ${code(report.harness.version)}, **catalogue** ${code(report.catalogue.version)} (spec ${code(report.catalogue.specVersion)}, sha256 ${code(report.catalogue.hash.slice(0, 12))})`,
    '',
    'SHOULD and MAY results are scored but never decide the verdict. A score counts passed requirements out of the applicable ones (not skipped, not not-applicable); expected failures count as not passed.',
  ];
}

function scores(report: ComplianceReport): string[] {
  const lines = ['## Scores', '', '| Level | Score | passed | failed | blocked | expected failure | blocked by expected failure | untested | not applicable | skipped |', '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|'];
  for (const level of LEVELS) {
    const c = report.counts.byLevel[level];
    lines.push(`| ${level} | ${formatScore(scoreOf(c))} | ${c.passed} | ${c.failed} | ${c.blocked} | ${c['expected-failure']} | ${c['blocked-by-expected-failure']} | ${c.untested} | ${c['not-applicable']} | ${c.skipped} |`);
  }
  lines.push('', '| Interface | MUST | SHOULD | MAY | failed |', '|---|---|---|---|--:|');
  for (const i of interfacesOf(report)) {
    const cells = LEVELS.map((l) => formatScore(cellScore(report, i, l)));
    lines.push(`| ${i} | ${cells.join(' | ')} | ${report.counts.byInterface[i]?.failed ?? 0} |`);
  }
  return lines;
}

/** Long bodies are cut here; compliance.html and compliance.json keep them whole. */
const RESPONSE_SHOWN = 600;

function failure(report: ComplianceReport, f: FailureRecord): string[] {
  const lines = [`**${text(failureLine(f))}**`, ''];
  const met = foundInLine(f);
  if (met) lines.push(`_${text(met)}_`, '');
  if (f.expected !== undefined) lines.push(value('Expected', f.expected), '');
  if (f.seen !== undefined) lines.push(value('Seen', f.seen), '');
  if (f.input !== undefined) {
    const where = [f.seed !== undefined ? `seed ${f.seed}` : '', f.path ? `path ${f.path}` : ''].filter(Boolean).join(', ');
    lines.push(value(`Generated input${where ? ` (${where})` : ''}`, f.input), '');
  }
  const last = f.exchanges.at(-1);
  if (last) {
    const response = last.response.length > RESPONSE_SHOWN ? `${last.response.slice(0, RESPONSE_SHOWN)}… (${last.response.length} characters in all)` : last.response;
    lines.push(`Last request (${f.exchanges.length} recorded, see compliance.html for all):`, '', block(last.curl, 'sh'), '', 'Response:', '', block(response, 'text'), '');
  }
  for (const line of reproductionLines(report, f)) lines.push(line.label, '', block(line.text, 'sh'), '');
  return lines;
}

function failed(report: ComplianceReport): string[] {
  const list = report.requirements.filter((r) => r.status === 'failed');
  if (list.length === 0) return ['## Failed requirements', '', 'None.'];
  const byLevel = LEVELS.flatMap((l) => list.filter((r) => r.level === l));
  const lines = [`## Failed requirements (${list.length})`, ''];
  for (const r of byLevel) {
    lines.push(`### ✗ ${r.id} · ${r.level} · ${r.interface} · § ${text(r.section)}`, '', `_${text(r.statement)}_`, '');
    if (r.consumers) lines.push(`${r.consumers} Pact consumer(s) rely on it (\`apc contracts matrix\` names them).`, '');
    if (r.failures.length === 0) lines.push('The test failed without a recorded failure.', '');
    for (const f of r.failures) lines.push(...failure(report, f));
  }
  return lines;
}

/** Requirements never judged because their tests stopped at a failed check: listed after the root causes. */
function blocked(report: ComplianceReport): string[] {
  const list = report.requirements.filter((r) => r.status === 'blocked');
  if (list.length === 0) return [];
  const lines = [`## Blocked requirements (${list.length})`, '', 'Not judged: their tests stopped at a failed check of another requirement. Fix that one first.', '', '| Id | Level | Blocked by | Statement |', '|---|---|---|---|'];
  for (const r of list) lines.push(`| ${r.id} | ${r.level} | ${(r.blockedBy ?? []).join(', ')} | ${text(r.statement)} |`);
  const seen = list.flatMap((r) => alsoSeenLines(r).map((line) => `- ${r.id}: ${text(line)}`));
  if (seen.length > 0) lines.push('', 'What their tests saw before they stopped, not judged:', '', ...seen);
  return lines;
}

function expectedFailures(report: ComplianceReport): string[] {
  const list = report.requirements.filter((r) => r.status === 'expected-failure');
  const held = report.requirements.filter((r) => r.status === 'blocked-by-expected-failure');
  if (list.length + held.length === 0) return [];
  const lines: string[] = [];
  if (list.length > 0) {
    lines.push(`## Expected failures (${list.length}, from the baseline)`, '', '| Id | Level | Reason in the baseline | What failed |', '|---|---|---|---|');
    for (const r of list) lines.push(`| ${r.id} | ${r.level} | ${text(r.reason ?? '')} | ${text(r.failures[0] ? failureLine(r.failures[0]) : '')} |`);
    lines.push('');
  }
  if (held.length > 0) {
    lines.push(`## Blocked by expected failures (${held.length})`, '', 'Not judged: their tests stopped at a failure the baseline expects. They are judged again once it is fixed.', '', '| Id | Level | Blocked by | Statement |', '|---|---|---|---|');
    for (const r of held) lines.push(`| ${r.id} | ${r.level} | ${(r.blockedBy ?? []).join(', ')} | ${text(r.statement)} |`);
    lines.push('');
  }
  return lines;
}

function errors(report: ComplianceReport): string[] {
  if (report.errors.length === 0) return [];
  return ['## Run errors', '', 'The run itself had problems; they make the verdict `error`:', '', ...report.errors.map((e) => `- ${text(e)}`), ''];
}

function matrix(report: ComplianceReport): string[] {
  const lines = ['## Requirement matrix', '', '| | Id | Level | Interface | § | Status | Checked | Statement | Note |', '|---|---|---|---|---|---|---|---|---|'];
  for (const r of report.requirements) {
    const note = r.status === 'failed' ? (r.failures[0] ? failureLine(r.failures[0]) : '') : (r.reason ?? '');
    lines.push(`| ${MARKS[r.status]} | ${r.id} | ${r.level} | ${r.interface} | ${text(r.section)} | ${STATUS_LABELS[r.status]} | ${checkedLine(r)} | ${text(r.statement)} | ${text(note)} |`);
  }
  return lines;
}

function notApplicable(report: ComplianceReport): string[] {
  const list = report.requirements.filter((r) => r.status === 'not-applicable');
  if (list.length === 0) return [];
  const lines = [`## Not applicable (${list.length})`, '', 'These rules need a capability the target profile does not declare; they are not scored.', '', '| Id | Level | Needs | Statement |', '|---|---|---|---|'];
  for (const r of list) lines.push(`| ${r.id} | ${r.level} | ${(r.needs ?? []).map(code).join(', ')} | ${text(r.statement)} |`);
  return lines;
}

export function renderMarkdown(report: ComplianceReport): string {
  const sections = [header(report), errors(report), scores(report), failed(report), blocked(report), expectedFailures(report), matrix(report), notApplicable(report)];
  return `${sections
    .filter((s) => s.length > 0)
    .map((s) => s.join('\n').trimEnd())
    .join('\n\n')}\n`;
}
