// `apc selftest`: the harness certifies itself. It certifies every mutant (a deliberately broken
// reference), valid variation and hostile target of harness/selftest/, prints the matrix and
// writes selftest.json and selftest.md. docs/selftest.md explains the measures.
import { setMaxListeners } from 'node:events';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { selector } from '../catalogue.ts';
import { selftestSubjects, waitsMost } from '../selftest/subject-list.ts';
import { measure } from '../selftest/measures.ts';
import { summaryLines, writeSelftestReport } from '../selftest/report.ts';
import { runSubject, type RunSettings, type SubjectRun } from '../selftest/run-subject.ts';
import { explanationOf } from '../selftest/mutants/spec-derived/explained.ts';
import { QUICK_GENERATED, sampleGenerated } from '../selftest/mutants/spec-derived/sample.ts';
import { isGenerated, type Mutant, type Subject } from '../selftest/subjects.ts';
import { COMBINATIONS, type Combination } from '../selftest/multi-fault/combinations.ts';
import { multiFaultReport, multiFaultSummaryLine } from '../selftest/multi-fault/report.ts';
import { componentsOf, runCombination, type CombinationRun } from '../selftest/multi-fault/run-combination.ts';
import { MULTI_FAULT_TARGETS, multiFaultProblems } from '../selftest/multi-fault/score.ts';
import type { StopRequest } from '../run/run-stop.ts';
import { SuiteBatches } from '../suite-runner/batches.ts';
import { command, type CommandIo } from './command.ts';
import { UsageError } from '../usage-error.ts';
import { SELFTEST_USAGE } from './usage.ts';
import { harnessVersion } from '../version.ts';
import { apcCommand } from '../apc-command.ts';

export const OPTIONS = {
  only: { type: 'string' },
  kinds: { type: 'string' },
  seeds: { type: 'string' },
  runs: { type: 'string' },
  seed: { type: 'string' },
  concurrency: { type: 'string' },
  reports: { type: 'string' },
  list: { type: 'boolean' },
  generated: { type: 'string' },
  budget: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const KINDS = ['mutant', 'variation', 'hostile'] as const;
/** Kinds run only when --kinds names them: the multi-fault combinations (harness/selftest/multi-fault/) certify whole interfaces with several faults on. */
const ASKED_KINDS = ['multi-fault'] as const;

function count(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`--${name}: expected a whole number from 1 to ${max}, found ${JSON.stringify(text)}.`);
  return n;
}

export async function selftest(argv: string[], io: CommandIo, stop?: StopRequest): Promise<number> {
  return command({ name: 'selftest', options: OPTIONS, usage: SELFTEST_USAGE }, argv, io, async (values) => {
    const kinds = (values.kinds ?? KINDS.join(',')).split(',').map((k) => k.trim().replace(/^(mutant|variation|multi-fault)s$/, '$1'));
    const unknown = kinds.filter((k) => !([...KINDS, ...ASKED_KINDS] as readonly string[]).includes(k));
    if (unknown.length > 0) throw new UsageError(`--kinds: unknown kind(s) ${unknown.join(', ')}; use mutants, variations, hostile, multi-fault.`);
    const only = selector(values.only ? [values.only] : []);
    const seed = count('seed', values.seed, 1, 0x7fffffff);
    // Generated mutants are many (each a whole interface's certification): a run certifies a
    // sample of them picked by its seed, unless --generated says how many (or all).
    const sample = values.generated === 'all' ? Infinity : count('generated', values.generated, QUICK_GENERATED, 100_000);
    const all = selftestSubjects();
    const subjects = sampleGenerated(all, sample, seed).filter((s) => kinds.includes(s.kind) && only(s.id));
    const combinations = kinds.includes('multi-fault') ? COMBINATIONS.filter((c) => only(c.id)) : [];
    const mutants = new Map(all.flatMap((s) => (s.kind === 'mutant' ? [[s.id, s] as const] : [])));
    const combined = combinations.map((combination) => ({ combination, components: componentsOf(combination, mutants) }));
    if (subjects.length === 0 && combinations.length === 0) throw new UsageError(`--only ${values.only ?? ''} --kinds ${kinds.join(',')} selects no subject; \`${apcCommand()} selftest --list\` lists them.`);
    if (values.list) {
      for (const s of subjects) io.out.write(`${s.kind.padEnd(9)} ${s.id.padEnd(40)} ${s.interface.padEnd(17)} ${s.kind === 'mutant' ? s.catches.join(' ') : s.what}\n`);
      for (const c of combinations) io.out.write(`multi-fault ${c.id.padEnd(38)} ${c.components.join(' ')}\n`);
      return 0;
    }
    // One mode: 25 runs per property, as users run it. A quick mode of 5 saved a tenth of a
    // certification's CPU once the fixed cost per subject was gone.
    const settings: RunSettings = {
      runs: count('runs', values.runs, 25, 100_000),
      detectionRuns: count('runs', values.runs, 25, 100_000),
      seed,
      seeds: count('seeds', values.seeds, 20, 1000),
      timeoutMs: 300_000,
      ...(values.budget !== undefined ? { budget: values.budget } : {}),
    };
    const concurrency = count('concurrency', values.concurrency, defaultConcurrency(), 8 * BATCH);
    const dir = resolve(values.reports ?? join('reports', `selftest-${new Date().toISOString().replace(/[:.]/g, '-')}`));
    const started = Date.now();
    // A first SIGINT or SIGTERM stops the certifications under way (each ends as a stopped apc
    // certify does) and starts no more; the report covers the subjects that ended. A second exits at once.
    const aborter = new AbortController();
    let interrupted: string | undefined;
    void stop?.requested.then((reason) => {
      interrupted = reason;
      io.err.write(`apc selftest: ${reason}; stopping the certifications under way (a second signal exits at once).\n`);
      aborter.abort();
    });
    settings.signal = aborter.signal;
    io.out.write(`apc selftest · ${subjects.length} subjects (${KINDS.map((k) => `${subjects.filter((s) => s.kind === k).length} ${k === 'hostile' ? 'hostile targets' : `${k}s`}`).join(', ')}) · ${settings.runs} runs per property, detection over ${settings.seeds} seeds at ${settings.detectionRuns} runs · ${concurrency} at a time\n`);
    if (combined.length > 0) io.out.write(`multi-fault · ${combined.length} combinations of ${new Set(combined.flatMap((c) => c.combination.components)).size} mutants, each certified on the interfaces it bends\n`);
    const total = subjects.length + combined.length;
    const { runs, combinationRuns, sharedRuns, instances, workers } = await runAll(subjects, combined, settings, concurrency, (line, done) => io.out.write(`[${done}/${total}] ${line}\n`));
    const ended = interrupted ? subjects.filter((s) => runs.some((r) => r.id === s.id)) : subjects;
    const single = measure(ended, runs);
    const measures = { ...single, problems: [...single.problems, ...multiFaultProblems(combinationRuns)], ...(combined.length > 0 ? { multiFault: multiFaultReport(combinationRuns) } : {}) };
    const { signal: _signal, timeoutMs: _timeoutMs, ...shown } = settings;
    const report = {
      harness: harnessVersion(),
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      ...shown,
      ...(interrupted ? { interrupted } : {}),
      ...measures,
    } as const;
    writeSelftestReport(dir, report);
    io.out.write(`\n${summaryLines(measures).join('\n')}\n`);
    if (measures.multiFault) io.out.write(`${multiFaultSummaryLine(measures.multiFault.totals)}\n`);
    for (const p of measures.problems) io.out.write(`  missed: ${p}\n`);
    io.out.write(`suites:  ${sharedRuns} shared vitest runs of up to ${BATCH} certifications each (subjects that mostly wait ran alone, hostile targets in child processes); ${instances} vitest instances and ${workers} suite worker processes in all\n`);
    io.out.write(`report:  ${join(dir, 'selftest.md')}\n`);
    if (interrupted) {
      io.out.write(`interrupted: ${runs.length} of ${subjects.length} subjects ended; the report covers those.\n`);
      return 130;
    }
    return measures.problems.length === 0 ? 0 : 1;
  });
}

/** Certifications one shared vitest run carries at most (harness/suite-runner/batches.ts): more start fewer workers, and wait longer for their slowest. */
const BATCH = 12;

/**
 * One shared vitest run (two workers) for each two cores, at most two at a time (runAll): a second
 * run's workers work while the first waits for its slowest subject. On two cores the second run
 * only contended for them: the full selftest took 440 s of CPU and 259 s at 24 at a time, against
 * 351 s and 223 s at 12 (and the same at 8), nothing else running, 2026-11-29 (docs/performance.md).
 */
function defaultConcurrency(): number {
  return BATCH * Math.min(2, Math.max(1, Math.floor(availableParallelism() / 2)));
}

/**
 * Runs mutants and variations `concurrency` at a time. Their suites run in shared vitest runs
 * (harness/suite-runner/batches.ts) of up to BATCH certifications each, two workers a run, so a
 * worker loads the harness and the suites once for many subjects; the next batch's references
 * start while a run is under way. Subjects that mostly wait (platform-like variations: a second
 * per throttled request, slow builds; those that wait out deadlines, subject-list.ts WAITS_OUT)
 * would hold a shared run open: they run first, three at a time, each in a vitest run of its own
 * (batches of one, whose lanes keep their instance and worker too).
 * Hostile runs mostly wait on deadlines and must end by themselves, as a user's run does: they
 * run beside them, three at a time, each in its own `apc certify` process.
 */
async function runAll(
  subjects: Subject[],
  combined: { combination: Combination; components: Mutant[] }[],
  settings: RunSettings,
  concurrency: number,
  progress: (line: string, done: number) => void,
): Promise<{ runs: SubjectRun[]; combinationRuns: CombinationRun[]; sharedRuns: number; instances: number; workers: number }> {
  const results = new Map<string, SubjectRun>();
  const combinationRuns = new Map<string, CombinationRun>();
  let done = 0;
  const pool = (queue: Subject[], size: number, own: RunSettings) =>
    Array.from({ length: size }, async () => {
      for (let next = queue.shift(); next && !settings.signal?.aborted; next = queue.shift()) {
        const run = await runSubject(next, own);
        results.set(run.id, run);
        progress(lineOf(next, run), ++done);
      }
    });
  // Multi-fault combinations share the batches of the mutants: a combination is one certification too.
  const combinationPool = (queue: typeof combined, size: number, own: RunSettings) =>
    Array.from({ length: size }, async () => {
      for (let next = queue.shift(); next && !settings.signal?.aborted; next = queue.shift()) {
        const run = await runCombination(next.combination, next.components, own);
        combinationRuns.set(run.id, run);
        progress(combinationLine(run), ++done);
      }
    });
  const bent = subjects.filter((s) => s.kind !== 'hostile');
  const size = Math.min(BATCH, concurrency);
  const alone = 3;
  // Each certification under way listens to the interrupt's signal, and each of its vitest
  // instances (a budgeted run also collects its tests first) to the process's unhandled
  // rejections until it closes: with this many under way, that is no leak.
  const inFlight = concurrency + size + 2 * alone;
  if (settings.signal) setMaxListeners(2 * inFlight, settings.signal);
  process.setMaxListeners(Math.max(process.getMaxListeners(), 2 * inFlight + 16));
  const batches = new SuiteBatches({ lanes: Math.ceil(concurrency / size), workers: 2, size, gatherMs: 300 });
  const waiting = SuiteBatches.alone(alone);
  try {
    await Promise.all([
      ...pool(bent.filter(waitsMost), alone, { ...settings, batches: waiting }),
      ...pool(bent.filter((s) => !waitsMost(s)), concurrency + size, { ...settings, batches }),
      ...combinationPool([...combined], combined.length > 0 ? concurrency : 0, { ...settings, batches }),
      ...pool(subjects.filter((s) => s.kind === 'hostile'), alone, settings),
    ]);
  } finally {
    // The lanes' vitest instances and workers, kept from batch to batch (also after an interrupt).
    await Promise.all([batches.close(), waiting.close()]);
  }
  return {
    runs: subjects.flatMap((s) => results.get(s.id) ?? []),
    combinationRuns: combined.flatMap((c) => combinationRuns.get(c.combination.id) ?? []),
    sharedRuns: batches.started,
    instances: batches.instances + waiting.instances,
    workers: batches.workers.started + waiting.workers.started,
  };
}

function combinationLine(run: CombinationRun): string {
  const time = `${(run.durationMs / 1000).toFixed(1)} s`;
  if (run.error) return `✗ multi-fault ${run.id}: no verdict: ${run.error.split('\n')[0]}`;
  const found = run.components.filter((c) => c.found).length;
  const missed = run.components.filter((c) => !c.found).map((c) => `${c.id} [${c.notFailed.join(', ')}]`);
  const mark = run.recall >= MULTI_FAULT_TARGETS.combinationRecall && run.outside.length === 0 ? '✓' : '✗';
  return `${mark} multi-fault ${run.id}: ${found}/${run.components.length} found${missed.length ? `; not found ${missed.join('; ')}` : ''}${run.outside.length ? `; failed outside ${run.outside.join(' ')}` : ''} (${time})`;
}

function lineOf(subject: Subject, run: SubjectRun): string {
  const time = `${(run.durationMs / 1000).toFixed(1)} s`;
  if (run.error) return `✗ ${subject.kind} ${subject.id}: no verdict: ${run.error.split('\n')[0]}`;
  if (subject.kind === 'mutant' && isGenerated(subject)) {
    const explained = run.failed.length === 0 ? explanationOf(subject.id) : undefined;
    const mark = run.failed.length > 0 || explained ? '✓' : '✗';
    return `${mark} generated ${subject.id}: ${run.failed.length > 0 ? `caught by ${run.failed.map((f) => f.id).join(' ')}` : explained ? `survived, explained (${explained.place})` : 'survived'} (${time})`;
  }
  if (subject.kind === 'mutant') {
    const failed = new Set(run.failed.map((f) => f.id));
    const missed = subject.catches.filter((id) => !failed.has(id));
    const outside = run.failed.filter((f) => !subject.catches.includes(f.id)).map((f) => f.id);
    const seeds = run.detection ? `, ${run.detection.caught.length}/${run.detection.seeds} seeds` : '';
    const mark = missed.length === 0 && outside.length === 0 && (!run.detection || run.detection.caught.length === run.detection.seeds) ? '✓' : '✗';
    return `${mark} mutant ${subject.id}: caught by ${subject.catches.filter((id) => failed.has(id)).join(' ') || 'nothing'}${missed.length ? `; missed ${missed.join(' ')}` : ''}${outside.length ? `; also failed ${outside.join(' ')}` : ''}${seeds} (${time})`;
  }
  if (subject.kind === 'variation') {
    const alarms = [...run.failed, ...run.blocked].filter((r) => r.level === 'MUST').map((r) => r.id);
    return `${alarms.length ? '✗' : '✓'} variation ${subject.id}: ${run.verdict}${alarms.length ? `; false alarm on ${alarms.join(' ')}` : ''} (${time})`;
  }
  return `${run.durationMs <= subject.boundMs ? '✓' : '✗'} hostile ${subject.id}: ${run.verdict} after ${time} (bound ${(subject.boundMs / 1000).toFixed(0)} s)`;
}
