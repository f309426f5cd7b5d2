// Runs the `apc` command as a user would (a child process) with any arguments, and returns what
// it printed. Unlike test/support/certify.ts it keeps the progress output, which the redaction
// test reads too.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../support/certify.ts';

export interface ApcRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function apc(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 240_000): Promise<ApcRun> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
