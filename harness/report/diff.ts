// `apc report diff OLD NEW`: what changed between two runs, requirement by requirement: newly
// failing, newly passing, failures whose message changed, other status changes, and requirements
// a catalogue change added or removed. Nightly staging runs diff against the last report.
// Baselined failures are judged as `apc certify` judges them: an expected failure, and what only
// expected failures blocked, is known, not a regression. Messages that differ only in the ids a run
// made up (comparable-message.ts) are the same failure.
import { comparableMessage } from './comparable-message.ts';
import { KNOWN_FAILURES, type ComplianceReport, type RequirementResult, type RequirementStatus } from './compliance.ts';
import { text as markdownCell } from './markdown.ts';

/** What fails a run: a failure or a block no baseline entry accounts for. */
const NEW_PROBLEMS: readonly RequirementStatus[] = ['failed', 'blocked'];
const FAILING: readonly RequirementStatus[] = [...NEW_PROBLEMS, ...KNOWN_FAILURES];

export interface StatusChange {
  id: string;
  level: RequirementResult['level'];
  before: RequirementStatus;
  after: RequirementStatus;
  /** The first failure message now (or before, for newly passing). */
  message?: string;
}

export interface MessageChange {
  id: string;
  level: RequirementResult['level'];
  before: string;
  after: string;
}

export interface ReportDiff {
  old: { runId: string; verdict: string; catalogue: string };
  new: { runId: string; verdict: string; catalogue: string };
  newlyFailing: StatusChange[];
  newlyPassing: StatusChange[];
  changedMessages: MessageChange[];
  otherChanges: StatusChange[];
  added: RequirementResult[];
  removed: RequirementResult[];
}

const firstMessage = (r: RequirementResult): string | undefined => r.failures[0]?.message;
const comparable = (r: RequirementResult): string | undefined => {
  const message = firstMessage(r);
  return message === undefined ? undefined : comparableMessage(message);
};

export function diffReports(before: ComplianceReport, after: ComplianceReport): ReportDiff {
  const old = new Map(before.requirements.map((r) => [r.id, r]));
  const now = new Map(after.requirements.map((r) => [r.id, r]));
  const diff: ReportDiff = {
    old: { runId: before.runId, verdict: before.verdict, catalogue: before.catalogue.version },
    new: { runId: after.runId, verdict: after.verdict, catalogue: after.catalogue.version },
    newlyFailing: [],
    newlyPassing: [],
    changedMessages: [],
    otherChanges: [],
    added: after.requirements.filter((r) => !old.has(r.id)),
    removed: before.requirements.filter((r) => !now.has(r.id)),
  };
  for (const r of after.requirements) {
    const was = old.get(r.id);
    if (!was) continue;
    const change: StatusChange = { id: r.id, level: r.level, before: was.status, after: r.status };
    const failsNow = FAILING.includes(r.status);
    const failedBefore = FAILING.includes(was.status);
    // A known failure the baseline no longer accounts for is new again.
    const newProblem = NEW_PROBLEMS.includes(r.status) && !NEW_PROBLEMS.includes(was.status);
    if ((failsNow && !failedBefore) || newProblem) diff.newlyFailing.push({ ...change, ...(firstMessage(r) ? { message: firstMessage(r) } : {}) });
    else if (r.status === 'passed' && failedBefore) diff.newlyPassing.push({ ...change, ...(firstMessage(was) ? { message: firstMessage(was) } : {}) });
    // A change of status (blocked → blocked by an expected failure) is named as one, whatever its message.
    else if (r.status !== was.status) diff.otherChanges.push({ ...change, ...(firstMessage(r) ? { message: firstMessage(r) } : {}) });
    else if (failsNow && comparable(r) !== comparable(was)) {
      diff.changedMessages.push({ id: r.id, level: r.level, before: firstMessage(was) ?? '(none)', after: firstMessage(r) ?? '(none)' });
    }
  }
  return diff;
}

/**
 * A requirement that passed before, or failed as the baseline expected, now fails or is blocked
 * outside the baseline: the diff's exit code is 1. A newly expected failure is no regression.
 */
export function hasRegression(diff: ReportDiff): boolean {
  return diff.newlyFailing.some((c) => NEW_PROBLEMS.includes(c.after) && (c.before === 'passed' || KNOWN_FAILURES.includes(c.before)));
}

export function diffMarkdown(diff: ReportDiff): string {
  const lines = [
    `# apc report diff: ${diff.old.runId} → ${diff.new.runId}`,
    '',
    `Verdict: ${diff.old.verdict} → ${diff.new.verdict}.` +
      (diff.old.catalogue === diff.new.catalogue ? ` Catalogue ${diff.new.catalogue}.` : ` Catalogue ${diff.old.catalogue} → ${diff.new.catalogue}.`),
    '',
  ];
  const changes = (title: string, list: StatusChange[]) => {
    if (list.length === 0) return;
    lines.push(`## ${title} (${list.length})`, '', '| Requirement | Level | Before | Now | Message |', '|---|---|---|---|---|');
    for (const c of list) lines.push(`| ${c.id} | ${c.level} | ${c.before} | ${c.after} | ${markdownCell(c.message ?? '')} |`);
    lines.push('');
  };
  const requirements = (title: string, list: RequirementResult[]) => {
    if (list.length === 0) return;
    lines.push(`## ${title} (${list.length})`, '', '| Requirement | Level | Status | Statement |', '|---|---|---|---|');
    for (const r of list) lines.push(`| ${r.id} | ${r.level} | ${r.status} | ${markdownCell(r.statement)} |`);
    lines.push('');
  };
  changes('Newly failing', diff.newlyFailing);
  changes('Newly passing', diff.newlyPassing);
  if (diff.changedMessages.length > 0) {
    lines.push(`## Failing with a changed message (${diff.changedMessages.length})`, '', '| Requirement | Level | Before | Now |', '|---|---|---|---|');
    for (const c of diff.changedMessages) lines.push(`| ${c.id} | ${c.level} | ${markdownCell(c.before)} | ${markdownCell(c.after)} |`);
    lines.push('');
  }
  changes('Other status changes', diff.otherChanges);
  requirements('Added by the catalogue', diff.added);
  requirements('Removed from the catalogue', diff.removed);
  const total = diff.newlyFailing.length + diff.newlyPassing.length + diff.changedMessages.length + diff.otherChanges.length + diff.added.length + diff.removed.length;
  if (total === 0) lines.push('No change.', '');
  return lines.join('\n');
}
