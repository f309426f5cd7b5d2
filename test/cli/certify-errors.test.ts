// `apc certify` when it cannot run: exit code 2 and a message that names the problem.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { certifyHere, ROOT } from '../support/certify.ts';

// Run outside the checkout: a run that cannot judge still writes its error report to ./reports.
const cwd = mkdtempSync(join(tmpdir(), 'apc-certify-errors-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const apc = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('apc certify: harness errors exit 2', () => {
  // Refused at once, not waited out: the message names the refusal, not a deadline (no wall-clock
  // bound here, the machines are shared; hostile-target.test.ts bounds runs by the deadlines).
  // Inside this process: nothing here is about the process.
  test('an unreachable control plane exits 2 and says what to check', async () => {
    const run = await certifyHere({ args: ['--control-plane-url', 'http://127.0.0.1:1'] });
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(/within \d+ ms/);
    expect(run.stderr).toContain('the control-plane at http://127.0.0.1:1: GET /v2/deployments answered nothing: connection refused');
    expect(run.stderr).toContain('check --control-plane-url and that the server is running');
  });

  test('a setup error with --reports still leaves a report with verdict error and a junit.xml', () => {
    const dir = mkdtempSync(join(tmpdir(), 'apc-setup-error-'));
    try {
      const r = apc('certify', '--control-plane-mode', 'cloud', '--reports', dir);
      expect(r.status).toBe(2);
      const report = JSON.parse(readFileSync(join(dir, 'compliance.json'), 'utf8')) as { verdict: string; verdictReason: string };
      expect(report.verdict).toBe('error');
      expect(report.verdictReason).toContain('--control-plane-mode: expected "hosted" or "self-hosted"');
      expect(existsSync(join(dir, 'junit.xml'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an unknown flag exits 2 and points at the help', () => {
    const r = apc('certify', '--control-plane', 'http://x');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/Unknown option '--control-plane'/);
    expect(r.stderr).toContain('apc help certify');
  });

  test('a bad URL, mode or number exits 2 naming the flag', () => {
    expect(apc('certify', '--control-plane-url', 'nope').stderr).toContain('--control-plane-url: expected an http(s) URL');
    expect(apc('certify', '--control-plane-mode', 'cloud').stderr).toContain('--control-plane-mode: expected "hosted" or "self-hosted"');
    const runs = apc('certify', '--runs=0');
    expect(runs.status).toBe(2);
    expect(runs.stderr).toContain('--runs: expected an integer from 1');
  });

  test('an interface without a URL, a bad shard and an empty selection exit 2', () => {
    const iface = apc('certify', '--control-plane-url', 'http://127.0.0.1:1', '--interfaces', 'agent-server');
    expect(iface.status).toBe(2);
    expect(iface.stderr).toContain('no agent-server URL was given');
    expect(apc('certify', '--shard', '3/2').stderr).toContain('--shard: expected I/N');
  });

  test('the API key never appears in the error output', () => {
    const r = apc('certify', '--control-plane-url', 'http://127.0.0.1:1', '--api-key', 'very-secret-key-123');
    expect(r.status).toBe(2);
    expect(r.stdout + r.stderr).not.toContain('very-secret-key-123');
  });

  test('help and version exit 0', () => {
    const help = apc('help', 'certify');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--control-plane-url');
    expect(help.stdout).toContain('Exit codes: 0 certified');
    expect(apc('--version').stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const unknown = apc('frobnicate');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
  });
});
