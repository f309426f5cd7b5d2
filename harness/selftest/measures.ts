// The selftest's measures, from the runs of its subjects (docs/selftest.md explains each):
// mutation score, false alarms, diagnosis precision, detection rate, and hostile targets' end
// times. Pure functions of the runs, so the matrix can be checked without running anything.
import { generatedMutants } from './mutants/spec-derived/derive.ts';
import { explanationOf, type Explanation } from './mutants/spec-derived/explained.ts';
import { isGenerated, type HostileTarget, type Mutant, type Subject, type Variation } from './subjects.ts';
import type { SubjectRun } from './run-subject.ts';

export interface MutantResult {
  id: string;
  what: string;
  family: Mutant['family'];
  catches: string[];
  /** Declared requirements that failed on it. */
  caughtBy: string[];
  /** Declared requirements that did not fail (blocked or passed): the harness missed them. */
  missed: string[];
  /** Requirements that failed outside its declared ones: imprecise diagnosis. */
  outside: string[];
  status: 'caught' | 'partly caught' | 'survived' | 'error';
  /** Seeds of the detection run that caught it, of those run (property rules only). */
  detection?: { requirements: string[]; seeds: number; caught: number };
  durationMs: number;
  error?: string;
}

/**
 * A generated mutant (mutants/spec-derived/): caught when its certification failed any requirement;
 * a survivor is explained by the reviewed list (allowed by the spec, or not observable) or is a
 * problem to fix with a new or stronger check.
 */
export interface GeneratedResult {
  id: string;
  what: string;
  interface: Mutant['interface'];
  /** Requirements the traceability map gives the mutated statement. */
  expected: string[];
  /** Requirements that failed on it. */
  failed: string[];
  status: 'caught' | 'explained' | 'survived' | 'error';
  explanation?: Explanation;
  durationMs: number;
  error?: string;
}

export interface VariationResult {
  id: string;
  what: string;
  verdict: string | undefined;
  /** MUST requirements failed or blocked on it, with why: each one a false alarm. */
  alarms: string[];
  /** SHOULD/MAY requirements failed on it (its declared departures included). */
  notes: string[];
  durationMs: number;
  error?: string;
}

export interface HostileResult {
  id: string;
  what: string;
  verdict: string | undefined;
  endedMs: number;
  boundMs: number;
  /** Ended with a report within its bound. */
  ok: boolean;
  error?: string;
}

export interface SelftestMeasures {
  mutants: MutantResult[];
  generated: GeneratedResult[];
  /** Generated mutants caught, explained survivors, all run, and all the program derives (a run may certify a sample). */
  generatedScore: { caught: number; explained: number; total: number; derived: number };
  variations: VariationResult[];
  hostile: HostileResult[];
  /** Mutants caught on every declared requirement, of all mutants. */
  mutationScore: { caught: number; total: number };
  /** Variations that failed or blocked a MUST. */
  falseAlarms: number;
  /** Mutants with a failure outside their declared requirements. */
  imprecise: number;
  /** Mutants caught in fewer seeds than were run. */
  belowDetectionTarget: number;
  /** Why the selftest fails; empty when every target is met. */
  problems: string[];
}

export function measure(subjects: Subject[], runs: SubjectRun[]): SelftestMeasures {
  const byId = new Map(subjects.map((s) => [s.id, s]));
  const mutants: MutantResult[] = [];
  const generated: GeneratedResult[] = [];
  const variations: VariationResult[] = [];
  const hostile: HostileResult[] = [];
  for (const run of runs) {
    const subject = byId.get(run.id);
    if (subject?.kind === 'mutant' && isGenerated(subject)) generated.push(generatedResult(subject, run));
    else if (subject?.kind === 'mutant') mutants.push(mutantResult(subject, run));
    else if (subject?.kind === 'variation') variations.push(variationResult(subject, run));
    else if (subject?.kind === 'hostile') hostile.push(hostileResult(subject, run));
  }
  const problems: string[] = [];
  for (const m of mutants) {
    if (m.status === 'error') problems.push(`mutant ${m.id}: no verdict (${m.error})`);
    else if (m.status !== 'caught') problems.push(`mutant ${m.id} ${m.status}: ${m.missed.join(', ')} did not fail`);
    if (m.outside.length > 0) problems.push(`mutant ${m.id}: failed outside its declared requirements: ${m.outside.join(', ')}`);
    if (m.detection && m.detection.caught < m.detection.seeds) problems.push(`mutant ${m.id}: caught in ${m.detection.caught} of ${m.detection.seeds} seeds`);
  }
  for (const g of generated) {
    if (g.status === 'error') problems.push(`generated mutant ${g.id}: no verdict (${g.error})`);
    if (g.status === 'survived') problems.push(`generated mutant ${g.id} survived: ${g.what}; add or strengthen a check (expected ${g.expected.join(', ') || 'no mapped requirement'}), or explain it in mutants/spec-derived/explained.ts`);
  }
  for (const v of variations) {
    if (v.error) problems.push(`variation ${v.id}: no verdict (${v.error})`);
    for (const alarm of v.alarms) problems.push(`variation ${v.id}: false alarm: ${alarm}`);
  }
  for (const h of hostile) if (!h.ok) problems.push(`hostile ${h.id}: ${h.error ?? `ended after ${h.endedMs} ms, bound ${h.boundMs} ms`}`);
  return {
    mutants,
    generated,
    generatedScore: { caught: generated.filter((g) => g.status === 'caught').length, explained: generated.filter((g) => g.status === 'explained').length, total: generated.length, derived: generatedMutants().length },
    variations,
    hostile,
    mutationScore: { caught: mutants.filter((m) => m.status === 'caught').length, total: mutants.length },
    falseAlarms: variations.filter((v) => v.alarms.length > 0 || v.error).length,
    imprecise: mutants.filter((m) => m.outside.length > 0).length,
    belowDetectionTarget: mutants.filter((m) => m.detection && m.detection.caught < m.detection.seeds).length,
    problems,
  };
}

function mutantResult(mutant: Mutant, run: SubjectRun): MutantResult {
  const failed = new Set(run.failed.map((f) => f.id));
  const caughtBy = mutant.catches.filter((id) => failed.has(id));
  const missed = mutant.catches.filter((id) => !failed.has(id));
  const status = run.error ? 'error' : missed.length === 0 ? 'caught' : caughtBy.length > 0 ? 'partly caught' : 'survived';
  return {
    id: mutant.id,
    what: mutant.what,
    family: mutant.family,
    catches: mutant.catches,
    caughtBy,
    missed,
    outside: run.failed.filter((f) => !mutant.catches.includes(f.id)).map((f) => `${f.id} (${f.message})`),
    status,
    ...(run.detection ? { detection: { requirements: run.detection.requirements, seeds: run.detection.seeds, caught: run.detection.caught.length } } : {}),
    durationMs: run.durationMs,
    ...(run.error ? { error: run.error } : {}),
  };
}

function generatedResult(mutant: Mutant, run: SubjectRun): GeneratedResult {
  const failed = run.failed.map((f) => f.id);
  const explanation = failed.length === 0 ? explanationOf(mutant.id) : undefined;
  const status = run.error ? 'error' : failed.length > 0 ? 'caught' : explanation ? 'explained' : 'survived';
  return {
    id: mutant.id,
    what: mutant.what,
    interface: mutant.interface,
    expected: mutant.catches,
    failed,
    status,
    ...(explanation ? { explanation } : {}),
    durationMs: run.durationMs,
    ...(run.error ? { error: run.error } : {}),
  };
}

function variationResult(variation: Variation, run: SubjectRun): VariationResult {
  const musts = [...run.failed, ...run.blocked].filter((r) => r.level === 'MUST');
  const others = run.failed.filter((r) => r.level !== 'MUST');
  const okVerdict = run.verdict === 'certified' || run.verdict === 'passed' || run.verdict === 'not-certified';
  return {
    id: variation.id,
    what: variation.what,
    verdict: run.verdict,
    alarms: [...musts.map((r) => `${r.id}: ${r.message}`), ...(okVerdict || run.error ? [] : [`verdict ${run.verdict}`])],
    notes: others.map((r) => `${r.id} (${r.level})${variation.departs?.includes(r.id) ? ', a declared departure' : ''}`),
    durationMs: run.durationMs,
    ...(run.error ? { error: run.error } : {}),
  };
}

function hostileResult(target: HostileTarget, run: SubjectRun): HostileResult {
  return {
    id: target.id,
    what: target.what,
    verdict: run.verdict,
    endedMs: run.durationMs,
    boundMs: target.boundMs,
    ok: !run.error && run.durationMs <= target.boundMs,
    ...(run.error ? { error: run.error } : {}),
  };
}
