// From `apc serve` to CERTIFIED with nothing but what it prints: two generated keys, each with
// its tenant, and the `apc certify` line that uses them (issue: a newcomer's first hour). `apc serve`
// runs as a user starts it, a process of its own; the line it prints runs inside this process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { main } from '../../harness/cli/main.ts';
import { certifyHere, ROOT } from '../support/certify.ts';

let served: ChildProcess | undefined;
const dir = mkdtempSync(join(tmpdir(), 'apc-serve-certified-'));
afterAll(() => {
  served?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

/** What `apc serve` printed, once it printed the certify line. */
function startServe(): Promise<string> {
  served = spawn(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), 'serve', '--control-plane-port', '0', '--agent-server-port', '0', '--tracing-port', '0'], {
    env: { ...process.env, APC_REF_API_KEYS: '' },
  });
  let out = '';
  return new Promise((resolve, reject) => {
    served!.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Press Ctrl-C')) resolve(out);
    });
    served!.on('exit', (code) => reject(new Error(`apc serve exited ${code}: ${out}`)));
  });
}

test('apc serve prints two keys and a certify line that certifies it', { timeout: 600_000 }, async () => {
  const printed = await startServe();
  expect(printed).toMatch(/second key {9}apc-dev-\S+ {2}\(tenant [0-9a-f-]{36}; a second workspace/);
  // In a clone `apc` is not on PATH: the line says `npx apc` (harness/apc-command.ts).
  const line = /^ {2}(APC_API_KEY=\S+ APC_OTHER_API_KEY=\S+) npx apc certify (.+)$/m.exec(printed);
  expect(line, printed).not.toBeNull();
  const env = Object.fromEntries(line![1]!.split(' ').map((pair) => pair.split('=') as [string, string]));
  // As printed, with fewer runs per property and polls 100 ms apart to keep the test short: the line
  // is for a target by URL, polled every 5 s by default, and the served reference's revisions end
  // within 120 ms, so on the run's one suite worker each revision waited a whole poll (24 s, not 10).
  const run = await certifyHere({ args: [...line![2]!.split(' '), '--runs', '5', '--poll-interval-ms', '100'], env, reportDir: dir, timeoutMs: 560_000 });
  expect(run.report?.verdict, `${run.report?.verdictReason}\n${run.stdout}${run.stderr}`).toBe('certified');
  expect(run.code).toBe(0);
});

test('a key list in APC_REF_API_KEYS that lacks a tenant is named as such, not as a flag never given', async () => {
  let err = '';
  const code = await main(['serve'], { out: { write: () => undefined }, err: { write: (t) => void (err += t) }, env: { APC_REF_API_KEYS: 'k-secret-9:' } });
  expect(code).toBe(2);
  expect(err).toContain('APC_REF_API_KEYS: expected KEY:TENANT');
  expect(err).not.toContain('--api-key');
  expect(err).not.toContain('k-secret-9');
});
