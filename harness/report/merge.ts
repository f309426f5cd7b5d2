// `apc report merge`: shard reports (`apc certify --shard I/N` on several machines) become one
// report with one verdict. Only reports of the same catalogue and seed are merged; a requirement
// present in several reports keeps its worst status (failed wins).
import { mkdirSync } from 'node:fs';
import { INTERFACES } from '../profile/profile.ts';
import { assembleReport } from './assemble.ts';
import { redactor } from '../redact.ts';
import { verdictOf, type ComplianceReport, type RequirementResult, type RequirementStatus, type Universe } from './compliance.ts';
import { addTally, type TransientTally } from '../http/throttling.ts';
import { ReportError } from './read.ts';
import { writeReports } from './write.ts';

export interface ReportFolder {
  dir: string;
  report: ComplianceReport;
}

/** Worst first: the status a requirement keeps when reports disagree. */
const PRECEDENCE: RequirementStatus[] = [
  'failed',
  'blocked',
  'expected-failure',
  'blocked-by-expected-failure',
  'passed',
  'not-applicable',
  'skipped',
  'untested',
];

function checkCompatible(folders: ReportFolder[]): void {
  const [first, ...rest] = folders;
  if (!first) throw new ReportError('Give at least one report folder to merge.');
  const a = first.report;
  for (const { dir, report: b } of rest) {
    if (b.catalogue.version !== a.catalogue.version || b.catalogue.hash !== a.catalogue.hash) {
      throw new ReportError(
        `${dir} was made with catalogue ${b.catalogue.version} (sha256 ${b.catalogue.hash.slice(0, 12)}), ${first.dir} with ${a.catalogue.version} (sha256 ${a.catalogue.hash.slice(0, 12)}): ` +
          'shards must come from the same catalogue. Run every shard with the same harness version.',
      );
    }
    if (b.seed !== a.seed) {
      throw new ReportError(
        `${dir} ran with seed ${b.seed}, ${first.dir} with seed ${a.seed}: shards must share one seed. Run every shard with the same --seed.`,
      );
    }
    if (b.target.reference !== a.target.reference) {
      throw new ReportError(
        `${dir} and ${first.dir} certified different kinds of target (one is the in-repo reference implementation): they cannot be merged.`,
      );
    }
  }
  const counts = new Set(folders.map((f) => f.report.shard?.count).filter((c) => c !== undefined));
  if (counts.size > 1)
    throw new ReportError(`The reports come from different shard counts (${[...counts].join(' and ')}): merge the shards of one --shard I/N split.`);
  const [count] = [...counts];
  if (count !== undefined && folders.every((f) => f.report.shard)) {
    const present = new Set(folders.map((f) => f.report.shard!.index));
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !present.has(i));
    if (missing.length > 0) {
      throw new ReportError(
        `Shard(s) ${missing.map((i) => `${i}/${count}`).join(', ')} missing: a merged report must cover every shard, or its verdict would cover only part of the catalogue.`,
      );
    }
  }
}

/** One requirement's results from several runs of it: the worst status, with every test and check. */
export function combine(results: RequirementResult[]): RequirementResult {
  const rank = (r: RequirementResult) => PRECEDENCE.indexOf(r.status);
  const worst = results.reduce((w, r) => (rank(r) < rank(w) ? r : w));
  const same = results.filter((r) => r.status === worst.status);
  return {
    ...worst,
    tests: [...new Set(results.flatMap((r) => r.tests))],
    failures: same.flatMap((r) => r.failures),
    checks: { ran: results.reduce((n, r) => n + r.checks.ran, 0), held: results.reduce((n, r) => n + r.checks.held, 0) },
  };
}

export interface MergeOptions {
  runId: string;
  /** Requirement ids in catalogue order, when the current catalogue is the reports' one. */
  order?: string[];
  /** The catalogue's ids per interface, when it is the reports' one: a certificate needs them all. */
  universe?: Universe;
}

export function mergeReports(folders: ReportFolder[], { runId, order, universe }: MergeOptions): ComplianceReport {
  checkCompatible(folders);
  const byId = new Map<string, RequirementResult[]>();
  for (const { report } of folders) for (const r of report.requirements) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
  const position = new Map(order?.map((id, i) => [id, i]));
  const requirements = [...byId.values()].map(combine).sort((a, b) => {
    const pa = position.get(a.id);
    const pb = position.get(b.id);
    if (pa !== undefined && pb !== undefined) return pa - pb;
    return INTERFACES.indexOf(a.interface) - INTERFACES.indexOf(b.interface) || a.id.localeCompare(b.id);
  });
  const several = folders.length > 1;
  const errors = [...new Set(folders.flatMap(({ report }) => report.errors.map((e) => (several ? `${report.runId}: ${e}` : e))))];
  // Without the reports' catalogue, the merged ids are all that is known of it.
  const known: Universe = {};
  for (const r of requirements) (known[r.interface] ??= []).push(r.id);
  const { verdict, reason, mustScore } = verdictOf(requirements, errors, universe ?? known);
  const first = folders[0]!.report;
  const summed = folders.reduce<TransientTally>((sum, f) => addTally(sum, f.report.transient), {});
  const transient = Object.keys(summed).length > 0 ? summed : undefined;
  const times = folders.map((f) => f.report);
  // Each shard ran against the same target: what one learned of it holds for the merged run.
  const learned = folders.map((f) => f.report.learned).find((l) => l !== undefined);
  return assembleReport(
    { harness: first.harness, catalogue: first.catalogue, runId, seed: first.seed, mergedFrom: folders.map((f) => f.report.runId), target: first.target },
    {
      startedAt: times.map((r) => r.startedAt).sort()[0]!,
      endedAt: times
        .map((r) => r.endedAt)
        .sort()
        .at(-1)!,
      verdict,
      verdictReason: reason,
      mustScore,
      requirements,
      errors,
      ...(transient ? { transient } : {}),
      ...(learned ? { learned } : {}),
    },
    // A merge is a command of its own (apc report merge): its process's redactor.
    redactor,
  );
}

/** Writes the merged report in every format (Allure results included, one per requirement). */
export function writeMerged(out: string, report: ComplianceReport): void {
  mkdirSync(out, { recursive: true });
  writeReports(out, report);
}
