// The compliance model: one status per requirement, counts, and the verdict. Built from the
// outcomes of the conformance tests; written as compliance.json (schema:
// schemas/compliance-report.ts) and rendered into the other report formats.
import { notApplicableReason, type Catalogue, type Level, type Requirement } from '../catalogue.ts';
import type { CheckTally, PropertyTally } from '../conformance/check.ts';
import type { Created } from '../conformance/created.ts';
import type { RequestCounts } from '../conformance/request-count.ts';
import type { TestCost } from '../conformance/requirement.ts';
import type { FailureRecord, SeenRecord } from '../conformance/failure.ts';
import { foreignFailures, settleBlocked } from './blocked-roots.ts';
import type { ComplianceReport, RequirementResult } from '../../schemas/compliance-report.ts';
import { STATUSES, type InterfaceName, type RequirementStatus, type Verdict } from '../../schemas/vocabulary.ts';
import { addTally, type TransientTally } from '../http/throttling.ts';

export type { ComplianceReport, RequirementResult } from '../../schemas/compliance-report.ts';
export { STATUSES, type RequirementStatus, type Verdict } from '../../schemas/vocabulary.ts';

/** What a baseline accepts: a listed failure, and what only listed failures kept from being judged. */
export const KNOWN_FAILURES: readonly RequirementStatus[] = ['expected-failure', 'blocked-by-expected-failure'];

/** Exit code of a run with this verdict: 0 certified or passed, 1 not certified or incomplete, 2 error, 130 interrupted. */
export function exitCodeOf(verdict: Verdict): number {
  switch (verdict) {
    case 'certified':
    case 'passed':
    case 'no-regressions':
      return 0;
    case 'not-certified':
    case 'incomplete':
      return 1;
    case 'interrupted':
      return 130;
    case 'error':
      return 2;
  }
}

/** What one conformance test reported. */
export interface TestOutcome {
  title: string;
  file: string;
  requirements: string[];
  state: 'passed' | 'failed' | 'skipped';
  notApplicable?: string[];
  /** Why the test ended without judging its requirements. */
  notJudged?: string;
  note?: string;
  failures: FailureRecord[];
  /** Requirement id → checks of it that ran in this test. */
  checks: Record<string, CheckTally>;
  properties: PropertyTally[];
  durationMs: number;
  /** What the test created on the target. */
  created?: Created;
  /** The requests it sent, per interface (harness/run/request-counts.ts tables them for the plan). */
  requests?: RequestCounts;
  /** What it was declared to create at most (the plan's share of it). */
  cost?: TestCost;
  /** Per interface: answers 429 / 503 the test waited out, and for how long. */
  transient?: TransientTally;
  /** The test could not judge: a request stayed throttled or unavailable. */
  keptRefusing?: boolean;
  /** Failures of other rules the test saw on its way without stopping (a status outside its enum). */
  attributed?: FailureRecord[];
  /** What it saw against its own statement before it stopped at another rule's failure: not judged. */
  alsoSeen?: SeenRecord[];
  /** Its body ran to the end: every check it makes ran, and its failures are checks it held back (`observe`). */
  bodyEnded?: boolean;
}

export type Counts = Record<RequirementStatus, number>;


/** The whole run's throttling and transient errors, from its tests; undefined when there were none. */
export function transientOf(outcomes: TestOutcome[]): TransientTally | undefined {
  const tally = outcomes.reduce<TransientTally>((sum, o) => addTally(sum, o.transient), {});
  return Object.keys(tally).length > 0 ? tally : undefined;
}

export function emptyCounts(): Counts {
  return Object.fromEntries(STATUSES.map((s) => [s, 0])) as Counts;
}

export interface Baseline {
  /** Requirement id → reason it is expected to fail. */
  entries: Map<string, string>;
}

type Status = Pick<RequirementResult, 'status' | 'reason' | 'needs' | 'failures' | 'blockedBy'>;

/**
 * A requirement's status from the tests that name it. It passed only when a check of it ran and
 * held in a test that passed, or in one whose body ran to its end (every check it makes ran; it
 * failed on a check of another of its rules it held back), and no check of it failed. A failed
 * test that stopped at another requirement's check before judging this one leaves it blocked by
 * that requirement.
 */
function statusOf(requirement: Requirement, outcomes: TestOutcome[], excluded: string | undefined, foreign: FailureRecord[]): Status {
  const id = requirement.id;
  const failed = outcomes.filter((o) => o.state === 'failed');
  // Its own tests' failures of it, then those other tests met (whoever met the broken statement first).
  const own = [...failed.flatMap((o) => o.failures.filter((f) => f.requirements.includes(id))), ...foreign];
  if (own.length > 0) return { status: 'failed', failures: own };
  const broken = failed.filter((o) => o.failures.length === 0);
  if (broken.length > 0) {
    // No recorded failure: the test crashed. Nothing names the culprit, so the requirement fails with what was seen.
    return { status: 'failed', failures: broken.map((o) => ({ requirements: [id], message: o.note ?? 'The test failed without a recorded failure.', repro: '', exchanges: [] })) };
  }
  if (outcomes.some((o) => (o.state === 'passed' || o.bodyEnded) && (o.checks[id]?.held ?? 0) > 0)) return { status: 'passed', failures: [] };
  if (failed.length > 0) {
    // The blocking failures stay with it: with --requirements the blocking requirement may not be in the report.
    const blocking = failed.flatMap((o) => o.failures);
    const blockedBy = [...new Set(blocking.flatMap((f) => f.requirements))].filter((r) => r !== id);
    return { status: 'blocked', blockedBy, reason: `not judged: its test stopped at a failed check of ${blockedBy.join(', ')}: ${blocking[0]?.message ?? ''}`, failures: blocking };
  }
  const na = outcomes.filter((o) => o.notApplicable && o.notApplicable.length > 0);
  if (outcomes.length > 0 && na.length === outcomes.length) {
    const needs = [...new Set(na.flatMap((o) => o.notApplicable!))];
    const why = na.map((o) => o.notJudged).find(Boolean);
    return { status: 'not-applicable', needs, reason: why ?? notApplicableReason(needs), failures: [] };
  }
  if (excluded) return { status: 'skipped', reason: `excluded: ${excluded}`, failures: [] };
  if (outcomes.some((o) => o.state === 'passed')) {
    return { status: 'skipped', reason: 'not judged: its tests passed without running a check of it', failures: [] };
  }
  if (outcomes.length > 0) {
    return { status: 'skipped', reason: outcomes.map((o) => o.notJudged ?? o.note).find(Boolean) ?? 'skipped', failures: [] };
  }
  return { status: 'untested', reason: 'no conformance test names this requirement', failures: [] };
}

function checksOf(id: string, outcomes: TestOutcome[]): CheckTally {
  return outcomes.reduce((sum, o) => ({ ran: sum.ran + (o.checks[id]?.ran ?? 0), held: sum.held + (o.checks[id]?.held ?? 0) }), { ran: 0, held: 0 });
}

/** With --seeds: the seeds run, and those in which a property of its tests found a counterexample. */
function seedsOf(outcomes: TestOutcome[]): RequirementResult['seeds'] {
  const tallies = outcomes.flatMap((o) => o.properties.flatMap((p) => (p.seeds ? [p.seeds] : [])));
  if (tallies.length === 0) return undefined;
  const caught = new Set(tallies.flatMap((s) => s.caught));
  return { ran: Math.max(...tallies.map((s) => s.ran)), caught: [...caught].sort((a, b) => a - b) };
}

function casesOf(outcomes: TestOutcome[]): RequirementResult['cases'] {
  const properties = outcomes.flatMap((o) => o.properties);
  if (properties.length === 0) return undefined;
  return { ran: properties.reduce((n, p) => n + p.ran, 0), asked: properties.reduce((n, p) => n + p.asked, 0) };
}

export interface BuildInput {
  catalogue: Catalogue;
  selected: Requirement[];
  outcomes: TestOutcome[];
  baseline?: Baseline;
  errors: string[];
  /**
   * Capabilities the spec gives every such target but the profile left out (a source kind of the
   * control plane's mode): a rule gated on one of them that was not applicable keeps the run from a
   * certificate, as `certificate: required` does.
   */
  omittedRequired?: string[];
}

export interface BuiltResults {
  requirements: RequirementResult[];
  errors: string[];
}

/**
 * The baseline applied to one result. A listed failure is expected. A requirement blocked only by
 * listed requirements is blocked by an expected failure: it would be judged once they are fixed, and
 * until then it is no news. A listed requirement that passes is stale.
 */
function withBaseline(result: RequirementResult, baseline: Baseline, runErrors: string[]): RequirementResult {
  const listed = baseline.entries.get(result.id);
  if (result.status === 'failed' && listed !== undefined) return { ...result, status: 'expected-failure', reason: listed };
  const blockers = result.blockedBy ?? [];
  if (result.status === 'blocked' && blockers.length > 0 && blockers.every((id) => baseline.entries.has(id))) {
    const why = blockers.map((id) => `${id} (${baseline.entries.get(id)})`).join(', ');
    return { ...result, status: 'blocked-by-expected-failure', reason: listed ?? `not judged: its test stopped at the expected failure of ${why}` };
  }
  if (result.status === 'passed' && listed !== undefined) {
    runErrors.push(`${result.id} is listed in the expected-failures file but passed: remove it from the baseline (stale entry).`);
  }
  return result;
}

/** A blocked requirement's observations against its own statement, made before its tests stopped. */
function alsoSeenOf(result: RequirementResult, tests: TestOutcome[]): RequirementResult['alsoSeen'] {
  if (result.status !== 'blocked') return undefined;
  const seen = tests.flatMap((t) => (t.alsoSeen ?? []).filter((s) => s.requirements.includes(result.id)));
  return seen.length > 0 ? seen.map((s) => ({ message: s.message, ...(s.seen !== undefined ? { seen: s.seen } : {}) })) : undefined;
}

/** Requirement results from test outcomes, with the expected-failures baseline applied. */
export function buildResults({ catalogue, selected, outcomes, baseline, errors, omittedRequired = [] }: BuildInput): BuiltResults {
  const byId = new Map<string, TestOutcome[]>();
  for (const o of outcomes) for (const id of o.requirements) byId.set(id, [...(byId.get(id) ?? []), o]);
  const excluded = new Map(catalogue.exclusions.filter((e) => e.id).map((e) => [e.id!, e.reason]));
  const foreign = foreignFailures(outcomes);
  const runErrors = [...errors];
  const judged = selected.map((r): RequirementResult => {
    const tests = byId.get(r.id) ?? [];
    const result: RequirementResult = {
      id: r.id,
      level: r.level,
      interface: r.interface,
      section: r.section,
      statement: r.statement,
      tests: tests.map((t) => t.title),
      ...statusOf(r, tests, excluded.get(r.id), foreign.get(r.id) ?? []),
      checks: checksOf(r.id, tests),
      ...(casesOf(tests) ? { cases: casesOf(tests)! } : {}),
      ...(seedsOf(tests) ? { seeds: seedsOf(tests)! } : {}),
      ...(r.certificate === 'required' || r.needs.some((n) => omittedRequired.includes(n)) ? { certificateRequired: true } : {}),
    };
    if (result.status === 'skipped' && tests.some((t) => t.keptRefusing)) result.keptRefusing = true;
    return result;
  });
  settleBlocked(judged);
  for (const result of judged) {
    const seen = alsoSeenOf(result, byId.get(result.id) ?? []);
    if (seen) result.alsoSeen = seen;
  }
  const requirements = baseline ? judged.map((result) => withBaseline(result, baseline, runErrors)) : judged;
  return { requirements, errors: runErrors };
}

export function countsOf(results: RequirementResult[]): ComplianceReport['counts'] {
  const total = emptyCounts();
  const byLevel: Record<Level, Counts> = { MUST: emptyCounts(), SHOULD: emptyCounts(), MAY: emptyCounts() };
  const byInterface: Partial<Record<InterfaceName, Counts>> = {};
  for (const r of results) {
    total[r.status]++;
    byLevel[r.level][r.status]++;
    (byInterface[r.interface] ??= emptyCounts())[r.status]++;
  }
  return { total, byLevel, byInterface };
}

/** What a run covered: the catalogue's ids per interface, to tell a certificate from a subset. */
export type Universe = Partial<Record<InterfaceName, string[]>>;

export function universeOf(catalogue: Catalogue): Universe {
  const universe: Universe = {};
  for (const r of catalogue.requirements) (universe[r.interface] ??= []).push(r.id);
  return universe;
}

export interface VerdictResult {
  verdict: Verdict;
  reason: string;
  mustScore: ComplianceReport['mustScore'];
}

const ids = (list: RequirementResult[]) => list.map((r) => r.id).join(', ');

/**
 * The verdict (docs/reports.md). `certified` needs the whole catalogue of each interface in the
 * run, every MUST judged and passed, no certificate-required MUST not applicable, nothing
 * blocked and no run error. A run of a subset whose judged MUSTs all passed is `passed`.
 */
export function verdictOf(results: RequirementResult[], errors: string[], universe: Universe): VerdictResult {
  const musts = results.filter((r) => r.level === 'MUST');
  const judged = musts.filter((r) => r.status !== 'not-applicable' && r.status !== 'skipped' && r.status !== 'blocked' && r.status !== 'blocked-by-expected-failure');
  const mustScore = { passed: judged.filter((r) => r.status === 'passed').length, applicable: judged.length };
  if (errors.length > 0) return { verdict: 'error', reason: errors[0]!, mustScore };
  if (results.length === 0) return { verdict: 'error', reason: 'No requirement was selected: check --requirements and --interfaces.', mustScore };
  const failed = musts.filter((r) => r.status === 'failed');
  const blocked = musts.filter((r) => r.status === 'blocked');
  const blockedText = blocked.length > 0 ? ` ${blocked.length} more blocked by them: ${ids(blocked)}.` : '';
  if (failed.length > 0) return { verdict: 'not-certified', reason: `${failed.length} MUST requirement(s) failed: ${ids(failed)}.${blockedText}`, mustScore };
  if (blocked.length > 0) return { verdict: 'not-certified', reason: `${blocked.length} MUST requirement(s) blocked by failed checks: ${ids(blocked)}.`, mustScore };
  const untested = musts.filter((r) => r.status === 'untested');
  if (untested.length > 0) return { verdict: 'not-certified', reason: `${untested.length} MUST requirement(s) have no test: ${ids(untested)}.`, mustScore };
  const refused = musts.filter((r) => r.keptRefusing);
  if (refused.length > 0) {
    return {
      verdict: 'error',
      reason: `${refused.length} MUST requirement(s) could not be judged: the target kept throttling (429) or failing transiently (503): ${ids(refused)}. Try --max-rps auto (or a lower --max-rps), or a larger timeouts.throttleMs.`,
      mustScore,
    };
  }
  if (mustScore.applicable === 0) {
    return { verdict: 'error', reason: 'No MUST requirement was judged (MUST 0/0): the selection holds none the target can be checked on.', mustScore };
  }
  const present = new Set(results.map((r) => r.id));
  const interfaces = [...new Set(results.map((r) => r.interface))];
  const partial = interfaces.filter((i) => (universe[i] ?? []).some((id) => !present.has(id)));
  // Known failures never make a certificate, nor a pass: the run only found nothing new.
  const expected = musts.filter((r) => r.status === 'expected-failure');
  const held = musts.filter((r) => r.status === 'blocked-by-expected-failure');
  const noRegressions = (scope: string): VerdictResult => ({
    verdict: 'no-regressions',
    reason:
      `No new failure${scope}: ${expected.length} MUST requirement(s) fail as the baseline expects (${ids(expected)})` +
      `${held.length > 0 ? ` and ${held.length} more are blocked by them (${ids(held)})` : ''}; not a certificate.`,
    mustScore,
  });
  const known = expected.length + held.length > 0;
  if (partial.length > 0) {
    if (known) return noRegressions(` in a subset of the catalogue of ${partial.join(', ')}`);
    return { verdict: 'passed', reason: `Every judged MUST passed, for a subset of the catalogue of ${partial.join(', ')}: a subset, not a certificate.`, mustScore };
  }
  const required = musts.filter((r) => r.certificateRequired && r.status === 'not-applicable');
  if (required.length > 0) {
    const needs = [...new Set(required.flatMap((r) => r.needs ?? []))];
    return {
      verdict: 'incomplete',
      reason: `A certificate needs ${ids(required)} judged, and they were not applicable (needs ${needs.join(', ')}).${needs.includes('fixture:other-tenant') ? ' Add `otherTenant:` (a second workspace key and tenant id) to the profile, or --other-api-key and --other-tenant-id.' : ''}${needs.includes('fixture:foreign-tenant') ? ' Add `foreignTenantId:` (a workspace the main key may not act for) to the profile.' : ''}${needs.some((n) => n.startsWith('source:')) ? " The spec gives every source kind of the control plane's mode to every such target (1.A, 2.1): list each in the profile's `sources:`." : ''}`,
      mustScore,
    };
  }
  const unjudged = musts.filter((r) => r.status === 'skipped' && !r.reason?.startsWith('excluded:'));
  const budget = unjudged.filter((r) => r.reason?.startsWith('budget:'));
  const forBudget = budget.length > 0 ? ` (${budget.length} of them left out by the budget: raise it with --budget or the profile's budget:)` : '';
  if (unjudged.length > 0) return { verdict: 'incomplete', reason: `${unjudged.length} MUST requirement(s) were not judged${forBudget}: ${ids(unjudged)}.`, mustScore };
  if (known) return noRegressions('');
  // The counts of not-applicable requirements are stated once, in the counts and the MUST score; the reason does not add a third.
  const na = musts.some((r) => r.status === 'not-applicable');
  return { verdict: 'certified', reason: `Every MUST requirement of the catalogue that applies to this target was judged and passed${na ? '; the report lists those that do not apply and why' : ''}.`, mustScore };
}
