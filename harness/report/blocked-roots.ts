// Each failure under the rule it breaks, and "blocked" naming root causes only. A test stops at
// the first failure it meets; that failure is recorded under the rule it names, whichever test met
// it (so a rule whose own test passed still fails where another test saw it broken). A check
// judged on a result set another rule makes is that rule's echo when that rule failed: its
// requirement is blocked by it, not failed. And `blockedBy` follows chains to failed rules, never
// naming one that passed or was itself blocked.
import type { FailureRecord } from '../conformance/failure.ts';
import type { RequirementResult } from '../../schemas/compliance-report.ts';

/** What this file needs of a test outcome (report/compliance.ts TestOutcome). */
interface OutcomeFailures {
  title: string;
  requirements: string[];
  state: 'passed' | 'failed' | 'skipped';
  failures: FailureRecord[];
  /** Failures of rules other than the test's own that the test saw without stopping (a status outside its enum, say). */
  attributed?: FailureRecord[];
}

/**
 * Requirement id → the failures naming it that tests not naming it met: the failure that stopped
 * a test at another rule's step, and what a test saw of another rule on its way. Each keeps the
 * title of the test that met it.
 */
export function foreignFailures(outcomes: readonly OutcomeFailures[]): Map<string, FailureRecord[]> {
  const byId = new Map<string, FailureRecord[]>();
  for (const o of outcomes) {
    const met = [...(o.state === 'failed' ? o.failures : []), ...(o.attributed ?? [])];
    for (const f of met) {
      for (const id of f.requirements) {
        if (o.requirements.includes(id)) continue;
        byId.set(id, [...(byId.get(id) ?? []), { ...f, foundIn: o.title }]);
      }
    }
  }
  return byId;
}

/** A failure that stands on its own: not judged on a set another rule makes. */
const standsAlone = (f: FailureRecord) => (f.reliesOn ?? []).length === 0;

/**
 * A failed requirement whose every failure was judged on a set made by a rule that failed on its
 * own (AS-SRCH-003 "listed 0 of 11" when AS-SRCH-001's filter lists nothing) is blocked by that
 * rule; the echo is shown under the rule that explains it, too.
 */
function settleEchoes(results: RequirementResult[]): void {
  const byId = new Map(results.map((r) => [r.id, r]));
  const failedAlone = (id: string) => {
    const r = byId.get(id);
    return r?.status === 'failed' && r.failures.some(standsAlone);
  };
  const echoes = new Map<string, string[]>();
  for (const r of results) {
    if (r.status !== 'failed' || r.failures.length === 0) continue;
    const causes = r.failures.map((f) => (f.reliesOn ?? []).filter(failedAlone));
    if (causes.some((c) => c.length === 0)) continue;
    echoes.set(r.id, [...new Set(causes.flat())]);
  }
  for (const [id, causes] of echoes) {
    const r = byId.get(id)!;
    const first = r.failures[0]!;
    r.status = 'blocked';
    r.blockedBy = causes;
    r.reason = `not judged: its check ran on a result set that the failure of ${causes.join(', ')} made empty or wrong: ${first.message}`;
    for (const cause of causes) byId.get(cause)!.failures.push(...r.failures.map((f) => ({ ...f, foundIn: f.foundIn ?? r.tests[0] })));
  }
}

/** The failed requirements at the end of each chain that starts at `id`'s blockers. */
function rootsOf(id: string, byId: Map<string, RequirementResult>, visiting = new Set<string>()): string[] {
  const r = byId.get(id);
  // A blocker outside this report (a --requirements run) is named as it is: nothing tells more.
  if (!r) return [id];
  if (r.status === 'failed') return [id];
  if (r.status !== 'blocked' || visiting.has(id)) return [];
  visiting.add(id);
  return [...new Set((r.blockedBy ?? []).flatMap((b) => rootsOf(b, byId, visiting)))];
}

/**
 * Every blocked requirement's `blockedBy` names root causes only: failed requirements, found
 * through chains of blocked ones. One whose blockers lead to no failed rule was not judged, and
 * nothing failed to explain it: it is skipped with the reason (what stopped its test, and the
 * blockers' own statuses), never failed on another rule's behalf nor blocked by a rule that held.
 */
export function resolveRoots(results: RequirementResult[]): void {
  const byId = new Map(results.map((r) => [r.id, r]));
  const roots = new Map(
    results.filter((r) => r.status === 'blocked').map((r) => [r.id, (r.blockedBy ?? []).flatMap((b) => rootsOf(b, byId, new Set([r.id])))]),
  );
  for (const [id, found] of roots) {
    const r = byId.get(id)!;
    const unique = [...new Set(found)];
    if (unique.length > 0) {
      if (unique.join() !== (r.blockedBy ?? []).join())
        r.reason = `not judged: its test stopped at a failure explained by ${unique.join(', ')} (through ${(r.blockedBy ?? []).join(', ')})`;
      r.blockedBy = unique;
      continue;
    }
    unexplained(r, byId);
  }
}

/** A blocked requirement no failed rule explains: skipped, with what stopped its test and why that is no failure. */
function unexplained(r: RequirementResult, byId: Map<string, RequirementResult>): void {
  const blockers = (r.blockedBy ?? []).map((b) => `${b} ${byId.get(b)!.status}`);
  const stopped = r.failures[0]?.message;
  r.status = 'skipped';
  r.reason = `not judged: its test stopped at a check of ${blockers.join(', ')}, which did not fail in this run${stopped ? `: ${stopped}` : ''}`;
  r.failures = [];
  delete r.blockedBy;
}

/** Echoes settled, then chains followed to their roots. */
export function settleBlocked(results: RequirementResult[]): void {
  settleEchoes(results);
  resolveRoots(results);
}
