// The compliance model: one status per requirement, counts, and the verdict. Built from the
// outcomes of the conformance tests; written as compliance.json (schema:
// schemas/compliance-report.ts) and rendered into the other report formats.
import type { Catalogue, Level, Requirement } from '../catalogue.ts';
import type { FailureRecord } from '../conformance/failure.ts';
import type { InterfaceName, TargetProfile } from '../profile.ts';

export type RequirementStatus = 'passed' | 'failed' | 'blocked' | 'skipped' | 'not-applicable' | 'expected-failure' | 'untested';
export const STATUSES: readonly RequirementStatus[] = ['passed', 'failed', 'blocked', 'skipped', 'not-applicable', 'expected-failure', 'untested'];
export type Verdict = 'certified' | 'passed' | 'incomplete' | 'not-certified' | 'error' | 'interrupted';

/** Exit code of a run with this verdict: 0 certified or passed, 1 not certified or incomplete, 2 error, 130 interrupted. */
export function exitCodeOf(verdict: Verdict): number {
  switch (verdict) {
    case 'certified':
    case 'passed':
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
  note?: string;
  failures: FailureRecord[];
  durationMs: number;
}

export interface RequirementResult {
  id: string;
  level: Level;
  interface: InterfaceName;
  section: string;
  statement: string;
  status: RequirementStatus;
  /** Titles of the tests that checked it. */
  tests: string[];
  failures: FailureRecord[];
  /** Why it was skipped, not applicable, or an expected failure. */
  reason?: string;
  /** Capabilities it needed and the target lacked. */
  needs?: string[];
  /** For a blocked requirement: the failed requirements whose checks stopped its tests. */
  blockedBy?: string[];
}

export type Counts = Record<RequirementStatus, number>;

export interface ComplianceReport {
  /** Version of this document's schema. */
  schemaVersion: 1;
  harness: { name: string; version: string };
  catalogue: { version: string; specVersion: string; hash: string };
  runId: string;
  seed: number;
  shard?: { index: number; count: number };
  /** Run ids of the shard reports `apc report merge` combined into this one. */
  mergedFrom?: string[];
  /** Run id of the report whose failed requirements `apc certify --replay` ran again. */
  replayOf?: string;
  target: { urls: Partial<Record<InterfaceName, string>>; controlPlaneMode: string; reference: boolean; profile: TargetProfile };
  startedAt: string;
  endedAt: string;
  verdict: Verdict;
  /** Why the verdict is what it is, in a sentence. */
  verdictReason: string;
  counts: { total: Counts; byLevel: Record<Level, Counts>; byInterface: Partial<Record<InterfaceName, Counts>> };
  /** MUST score: passed / applicable MUSTs (expected failures count as not passed). */
  mustScore: { passed: number; applicable: number };
  requirements: RequirementResult[];
  /** Problems of the run itself (a suite that could not load, an unhandled error). */
  errors: string[];
}

export function emptyCounts(): Counts {
  return { passed: 0, failed: 0, blocked: 0, skipped: 0, 'not-applicable': 0, 'expected-failure': 0, untested: 0 };
}

export interface Baseline {
  /** Requirement id → reason it is expected to fail. */
  entries: Map<string, string>;
}

function statusOf(requirement: Requirement, outcomes: TestOutcome[], excluded: string | undefined): Pick<RequirementResult, 'status' | 'reason' | 'needs' | 'failures'> {
  const failed = outcomes.filter((o) => o.state === 'failed');
  const own = failed.flatMap((o) => o.failures.filter((f) => f.requirements.includes(requirement.id)));
  if (own.length > 0) return { status: 'failed', failures: own };
  // A failed test that names this requirement but broke on another one's check (or on no recorded
  // check) never verified it. Unless another test did, it counts as failed: "not verified".
  const passedElsewhere = outcomes.some((o) => o.state === 'passed');
  if (failed.length > 0 && !passedElsewhere) {
    const blocked = failed.map((o): FailureRecord => {
      const first = o.failures[0];
      if (!first) return { requirements: [requirement.id], message: o.note ?? 'The test failed without a recorded failure.', repro: '', exchanges: [] };
      return { ...first, requirements: [requirement.id], message: `Not verified: the test stopped at a check of ${first.requirements.join(', ')}: ${first.message}` };
    });
    return { status: 'failed', failures: blocked };
  }
  if (outcomes.some((o) => o.state === 'passed')) return { status: 'passed', failures: [] };
  const na = outcomes.filter((o) => o.notApplicable && o.notApplicable.length > 0);
  if (outcomes.length > 0 && na.length === outcomes.length) {
    const needs = [...new Set(na.flatMap((o) => o.notApplicable!))];
    return { status: 'not-applicable', needs, reason: `needs ${needs.join(', ')}`, failures: [] };
  }
  if (excluded) return { status: 'skipped', reason: `excluded: ${excluded}`, failures: [] };
  if (outcomes.length > 0) {
    return { status: 'skipped', reason: outcomes.map((o) => o.note).find(Boolean) ?? 'skipped', failures: [] };
  }
  return { status: 'untested', reason: 'no conformance test names this requirement', failures: [] };
}

export interface BuildInput {
  catalogue: Catalogue;
  selected: Requirement[];
  outcomes: TestOutcome[];
  baseline?: Baseline;
  errors: string[];
}

export interface BuiltResults {
  requirements: RequirementResult[];
  errors: string[];
}

/** Requirement results from test outcomes, with the expected-failures baseline applied. */
export function buildResults({ catalogue, selected, outcomes, baseline, errors }: BuildInput): BuiltResults {
  const byId = new Map<string, TestOutcome[]>();
  for (const o of outcomes) for (const id of o.requirements) byId.set(id, [...(byId.get(id) ?? []), o]);
  const excluded = new Map(catalogue.exclusions.filter((e) => e.id).map((e) => [e.id!, e.reason]));
  const runErrors = [...errors];
  const requirements = selected.map((r): RequirementResult => {
    const tests = byId.get(r.id) ?? [];
    const result: RequirementResult = {
      id: r.id,
      level: r.level,
      interface: r.interface,
      section: r.section,
      statement: r.statement,
      tests: tests.map((t) => t.title),
      ...statusOf(r, tests, excluded.get(r.id)),
    };
    const expected = baseline?.entries.get(r.id);
    if (expected !== undefined) {
      if (result.status === 'failed') return { ...result, status: 'expected-failure', reason: expected };
      if (result.status === 'passed') {
        runErrors.push(`${r.id} is listed in the expected-failures file but passed: remove it from the baseline (stale entry).`);
      }
    }
    return result;
  });
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

/** certified: every applicable MUST passed (or is an accepted expected failure) and the run had no errors. */
export function verdictOf(results: RequirementResult[], errors: string[]): { verdict: Verdict; reason: string; mustScore: ComplianceReport['mustScore'] } {
  const musts = results.filter((r) => r.level === 'MUST' && r.status !== 'not-applicable' && r.status !== 'skipped');
  const mustScore = { passed: musts.filter((r) => r.status === 'passed').length, applicable: musts.length };
  if (errors.length > 0) return { verdict: 'error', reason: errors[0]!, mustScore };
  if (results.length === 0) return { verdict: 'error', reason: 'No requirement was selected: check --requirements and --interfaces.', mustScore };
  const failed = musts.filter((r) => r.status === 'failed');
  if (failed.length > 0) return { verdict: 'not-certified', reason: `${failed.length} MUST requirement(s) failed: ${failed.map((r) => r.id).join(', ')}.`, mustScore };
  const untested = musts.filter((r) => r.status === 'untested');
  if (untested.length > 0) return { verdict: 'not-certified', reason: `${untested.length} MUST requirement(s) have no test: ${untested.map((r) => r.id).join(', ')}.`, mustScore };
  return { verdict: 'certified', reason: 'Every applicable MUST requirement passed.', mustScore };
}
