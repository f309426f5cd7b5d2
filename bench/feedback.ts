// How long a contributor waits for an answer: the unit loop (`npm run test:unit`) and the full
// `apc selftest`, each run once, with the load of the machine before each. Not among the default
// sections (the selftest takes minutes): `npm run bench -- --only feedback`.
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
}

async function once(command: string, run: () => Promise<ApcRun>): Promise<FeedbackFigures> {
  const loadBefore = round(loadavg()[0]!);
  const r = await run();
  return { command, wallSeconds: round(r.wallSeconds), cpuSeconds: round(r.cpuSeconds), loadBefore, passed: r.code === 0 };
}

export async function feedback(): Promise<FeedbackFigures[]> {
  const reports = mkdtempSync(join(tmpdir(), 'apc-bench-selftest-'));
  try {
    return [
      await once('npm run test:unit', () => runTimed('npm', ['run', '--silent', 'test:unit'])),
      await once('apc selftest', () => runApc(['selftest', '--reports', reports])),
    ];
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
}
