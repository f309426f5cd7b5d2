// How long `apc` takes: `apc help`, a one-requirement certification (the fixed cost) and the
// default certification of the reference implementation, each the median of a few runs, with the
// spread and the load of the machine before them (a figure of a busy machine is not an idle one's).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, round } from './support/load.ts';
import { runApc, type ApcRun } from './support/apc-process.ts';

export interface CommandFigures {
  command: string;
  runs: number;
  /** Medians. */
  wallSeconds: number;
  cpuSeconds: number;
  /** The fastest and slowest run's wall time. */
  wallRange: [number, number];
  /** The 1-minute load average before the first run (2 means two busy cores on a 2-core machine). */
  loadBefore: number;
}

async function timed(command: string, args: (reports: string) => string[], runs: number): Promise<CommandFigures> {
  const samples: ApcRun[] = [];
  const loadBefore = round(loadavg()[0]!);
  for (let i = 0; i < runs; i += 1) {
    const reports = mkdtempSync(join(tmpdir(), 'apc-bench-'));
    try {
      samples.push(await runApc(args(reports)));
    } finally {
      rmSync(reports, { recursive: true, force: true });
    }
  }
  return {
    command,
    runs,
    wallSeconds: round(percentile(samples.map((s) => s.wallSeconds), 50)),
    cpuSeconds: round(percentile(samples.map((s) => s.cpuSeconds), 50)),
    wallRange: [round(Math.min(...samples.map((s) => s.wallSeconds))), round(Math.max(...samples.map((s) => s.wallSeconds)))],
    loadBefore,
  };
}

export async function certification(runs: number): Promise<CommandFigures[]> {
  return [
    await timed('apc help', () => ['help'], runs),
    await timed('apc certify --requirements CP-READ-001', (reports) => ['certify', '--requirements', 'CP-READ-001', '--quiet', '--reports', reports], runs),
    await timed('apc certify', (reports) => ['certify', '--quiet', '--reports', reports], runs),
  ];
}

/** A default certification of an already running target, for the scale table. */
export async function certifyTarget(flags: string[]): Promise<CommandFigures> {
  return timed('apc certify (target URL)', (reports) => ['certify', ...flags, '--quiet', '--reports', reports], 1);
}
