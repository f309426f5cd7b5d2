// Runs the `apc` command as a user would (or another command) and times it: wall time, and the CPU time of the process
// and its children (vitest workers) from /proc/self/stat, which counts children once they exit.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../harness/root.ts';

const TICKS_PER_SECOND = 100;

function childCpuSeconds(): number {
  // Fields after the command name: cutime and cstime are the 14th and 15th.
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

export interface ApcRun {
  code: number | null;
  wallSeconds: number;
  cpuSeconds: number;
  stdout: string;
  /** What it wrote to stderr (vitest prints its failures there). */
  stderr: string;
}

export async function runApc(args: string[]): Promise<ApcRun> {
  return runTimed(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), ...args]);
}

/** Any command run from the project's root (or another checkout's), timed the same way (`npm run test:unit`, say). */
export async function runTimed(command: string, args: string[], cwd = ROOT): Promise<ApcRun> {
  const cpuBefore = childCpuSeconds();
  const started = performance.now();
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const wallSeconds = (performance.now() - started) / 1000;
  if (code !== 0 && code !== 1) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${stderr}`);
  return { code, wallSeconds, cpuSeconds: childCpuSeconds() - cpuBefore, stdout, stderr };
}
