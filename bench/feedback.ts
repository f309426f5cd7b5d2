// How long a contributor waits for an answer: the unit loop (`npm run test:unit`) and the full
// `apc selftest`, each run once, with the load of the machine before each. Not among the default
// sections (the selftest takes minutes): `npm run bench -- --only feedback`, or `--only unit` for
// the unit loop alone.
import { loadavg } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { round } from './support/load.ts';
import { runApc, runTimed, type ApcRun } from './support/apc-process.ts';

export interface FeedbackFigures {
  command: string;
  wallSeconds: number;
  cpuSeconds: number;
  /** The 1-minute load average when it started (2 means two busy cores on a 2-core machine). */
  loadBefore: number;
  passed: boolean;
  /** apc selftest: its measures and what each missed, as it printed them. */
  measures?: string[];
  /** apc selftest: the subjects that took longest, with their time (where its minutes go). */
  slowest?: string[];
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
    slowest: timed.sort((a, b) => b.seconds - a.seconds).slice(0, 10).map((t) => `${t.subject} ${t.seconds} s`),
  };
}

async function once(command: string, run: () => Promise<ApcRun>, details?: (stdout: string) => Partial<FeedbackFigures>): Promise<FeedbackFigures> {
  const loadBefore = round(loadavg()[0]!);
  const r = await run();
  return { command, wallSeconds: round(r.wallSeconds), cpuSeconds: round(r.cpuSeconds), loadBefore, passed: r.code === 0, ...details?.(r.stdout) };
}

export const unitLoop = (): Promise<FeedbackFigures> => once('npm run test:unit', () => runTimed('npm', ['run', '--silent', 'test:unit']));

export async function feedback(): Promise<FeedbackFigures[]> {
  const reports = mkdtempSync(join(tmpdir(), 'apc-bench-selftest-'));
  try {
    return [await unitLoop(), await once('apc selftest', () => runApc(['selftest', '--reports', reports]), selftestDetails)];
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
}
