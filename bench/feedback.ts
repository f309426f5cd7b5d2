// How long a contributor waits for an answer: `npm test`, the full `apc selftest` and the unit
// loop (`npm run test:unit`), with the load of the machine before each. Not among the default
// sections (minutes each): `npm run bench -- --only feedback`, or `--only unit` for the unit loop.
// With `--old REF` it compares two commits, each in a clone of its own, in rounds that alternate
// which goes first (a shared machine's load drifts; only a ratio taken in one run means anything).
import { loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../harness/root.ts';
import { median } from './revision-waits.ts';
import { round } from './support/load.ts';
import { runTimed, type ApcRun } from './support/apc-process.ts';
import { cloneAt, clonesFolder, install, type Checkout } from './support/checkouts.ts';
import { fileDurations } from './support/vitest-durations.ts';
import { failedTests } from './support/vitest-failures.ts';

export const FEEDBACK_COMMANDS = ['npm-test', 'selftest', 'unit'] as const;
export type FeedbackCommand = (typeof FEEDBACK_COMMANDS)[number];

export interface FeedbackFigures {
  command: string;
  /** `old` or `new` when two commits are compared, else `this checkout`. */
  checkout: string;
  round: number;
  wallSeconds: number;
  cpuSeconds: number;
  /** The 1-minute load average when it started (2 means two busy cores on a 2-core machine). */
  loadBefore: number;
  passed: boolean;
  /** apc selftest: its measures and what each missed, as it printed them. */
  measures?: string[];
  /** apc selftest: the subjects that took longest; npm test: the test files (where the minutes go). */
  slowest?: string[];
  /** npm test, when it failed: the failed tests (`file > describe > test`); apc selftest names what it missed among its measures. */
  failed?: string[];
}

/** One command's medians on each commit, and new ÷ old (below 1 is faster). */
export interface FeedbackComparison {
  command: string;
  old: { wallSeconds: number; cpuSeconds: number };
  new: { wallSeconds: number; cpuSeconds: number };
  wallRatio: number;
  cpuRatio: number;
}

export interface FeedbackResults {
  checkouts: { label: string; commit: string | null }[];
  runs: FeedbackFigures[];
  comparisons: FeedbackComparison[];
}

/** The last lines of `apc selftest`: one per measure, then one per subject that missed a target. */
const MEASURE = /^(mutation score|generated mutants|false alarms|diagnosis precision|detection rate|hostile targets| {2}missed:) /;
/** A subject's progress line: `[3/204] ✓ mutant cp.x: caught by … (12.3 s)`. */
const SUBJECT = /^\[\d+\/\d+\] . (\S+ \S+?):.*\((\d+(?:\.\d+)?) s\)$/;

function selftestDetails(stdout: string): Pick<FeedbackFigures, 'measures' | 'slowest'> {
  const lines = stdout.split('\n');
  const timed = lines.flatMap((line) => {
    const m = SUBJECT.exec(line);
    return m ? [{ subject: m[1]!, seconds: Number(m[2]) }] : [];
  });
  return {
    measures: lines.filter((line) => MEASURE.test(line)),
    slowest: timed
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 10)
      .map((t) => `${t.subject} ${t.seconds} s`),
  };
}

interface CommandSpec {
  shown: string;
  run(dir: string, scratch: string): Promise<ApcRun>;
  /** What the run printed and left behind, read after it ended. */
  details?(run: ApcRun, dir: string): Partial<FeedbackFigures>;
}

const COMMANDS: Record<FeedbackCommand, CommandSpec> = {
  'npm-test': {
    shown: 'npm test',
    run: (dir) => runTimed('npm', ['test', '--silent'], dir),
    details: (run, dir) => ({
      slowest: fileDurations(dir)
        .slice(0, 15)
        .map((f) => `${f.file} ${f.seconds} s`),
      failed: failedTests(`${run.stdout}\n${run.stderr}`),
    }),
  },
  selftest: {
    shown: 'apc selftest',
    run: (dir, scratch) => runTimed(process.execPath, [join(dir, 'bin', 'apc.mjs'), 'selftest', '--reports', mkdtempSync(join(scratch, 'selftest-'))], dir),
    details: (run) => selftestDetails(run.stdout),
  },
  unit: { shown: 'npm run test:unit', run: (dir) => runTimed('npm', ['run', '--silent', 'test:unit'], dir) },
};

/** Round 1 runs the checkouts in the order given, round 2 the other way round, and so on. */
export function roundOrder<T>(checkouts: readonly T[], round: number): T[] {
  return round % 2 === 1 ? [...checkouts] : [...checkouts].reverse();
}

type Measure = (checkout: Checkout, command: FeedbackCommand, round: number) => Promise<FeedbackFigures>;

/** Each round runs each command on every checkout, one after the other, in the round's order. */
export async function feedbackRounds(checkouts: Checkout[], commands: FeedbackCommand[], rounds: number, measure: Measure): Promise<FeedbackFigures[]> {
  const runs: FeedbackFigures[] = [];
  for (let r = 1; r <= rounds; r++) {
    for (const command of commands) {
      for (const checkout of roundOrder(checkouts, r)) runs.push(await measure(checkout, command, r));
    }
  }
  return runs;
}

/**
 * Per command, the median wall and CPU time of each commit's passing runs, and their ratios new ÷ old.
 * A failed run is left out: a selftest whose certifications ran into their deadlines stopped early,
 * and its time says how far it got, not what a whole run costs.
 */
export function compareRuns(runs: FeedbackFigures[]): FeedbackComparison[] {
  const commands = [...new Set(runs.map((r) => r.command))];
  return commands.flatMap((command) => {
    const of = (label: string) => {
      const mine = runs.filter((r) => r.command === command && r.checkout === label && r.passed);
      return mine.length ? { wallSeconds: round(median(mine.map((r) => r.wallSeconds))), cpuSeconds: round(median(mine.map((r) => r.cpuSeconds))) } : undefined;
    };
    const [old, now] = [of('old'), of('new')];
    if (!old || !now) return [];
    return [{ command, old, new: now, wallRatio: round(now.wallSeconds / old.wallSeconds, 3), cpuRatio: round(now.cpuSeconds / old.cpuSeconds, 3) }];
  });
}

function measureIn(scratch: string): Measure {
  return async (checkout, command, r) => {
    const spec = COMMANDS[command];
    const loadBefore = round(loadavg()[0]!);
    process.stderr.write(`bench: round ${r}, ${checkout.label}: ${spec.shown} (load ${loadBefore})\n`);
    const run = await spec.run(checkout.dir, scratch);
    const figures = {
      command: spec.shown,
      checkout: checkout.label,
      round: r,
      wallSeconds: round(run.wallSeconds),
      cpuSeconds: round(run.cpuSeconds),
      loadBefore,
      passed: run.code === 0,
    };
    const measured = { ...figures, ...spec.details?.(run, checkout.dir) };
    const failed = measured.failed?.length ? `: ${measured.failed.join(', ')}` : '';
    process.stderr.write(
      `bench: round ${r}, ${checkout.label}: ${spec.shown} took ${figures.wallSeconds} s wall, ${figures.cpuSeconds} s CPU${figures.passed ? '' : ` (FAILED${failed})`}\n`,
    );
    return measured;
  };
}

export interface FeedbackOptions {
  commands: FeedbackCommand[];
  rounds: number;
  /** Two commits to compare (full ids), or none for this checkout as it is. */
  commits?: { old: string; new: string };
  log(text: string): void;
}

export async function feedback(options: FeedbackOptions): Promise<FeedbackResults> {
  const scratch = mkdtempSync(join(tmpdir(), 'apc-bench-feedback-'));
  const clones = options.commits ? clonesFolder() : undefined;
  try {
    let checkouts: Checkout[] = [{ label: 'this checkout', commit: null, dir: ROOT }];
    if (options.commits && clones) {
      checkouts = [cloneAt(clones.parent, 'old', options.commits.old), cloneAt(clones.parent, 'new', options.commits.new)];
      // Installed before any run is timed: neither commit's first round pays for it.
      for (const checkout of checkouts) install(checkout, options.log);
    }
    const runs = await feedbackRounds(checkouts, options.commands, options.rounds, measureIn(scratch));
    return { checkouts: checkouts.map(({ label, commit }) => ({ label, commit })), runs, comparisons: compareRuns(runs) };
  } finally {
    clones?.remove();
    rmSync(scratch, { recursive: true, force: true });
  }
}
