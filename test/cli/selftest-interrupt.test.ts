// SIGTERM to `apc selftest` while certifications run: each running `apc certify` child is
// stopped (it ends as a stopped run does), no further subject starts, the report covers the
// subjects that ended and says the selftest was interrupted, and the exit code is 130.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { SelftestReport } from '../../harness/selftest/report.ts';
import { ROOT } from '../support/certify.ts';

/**
 * The `apc certify` processes whose parent is `pid` (Linux /proc). Only those: after a change of the
 * sources the CLI first rebuilds its bundle, and the bundler's own helper process, a child too, ends
 * a moment after its parent.
 */
function certifyChildrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // Field 4 of stat is the parent; the command name (field 2) may hold spaces, so split after it.
        const parent = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
        return parent === pid && readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').includes('certify');
      } catch {
        return false;
      }
    })
    .map(Number);
}

const alive = (pid: number) => existsSync(`/proc/${pid}`);

test.skipIf(process.platform !== 'linux')('SIGTERM stops the certifications under way and reports what ended, exit 130 (Linux only: it reads child processes from /proc)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'apc-selftest-stop-'));
  try {
    // Hostile targets whose runs each last half a minute or more (silence, a dripping body, streams
    // that never end or stall): three run at a time, so the fourth waits until one ends.
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), 'selftest', '--kinds', 'hostile', '--only', 'never-answers,drips-bytes,streams-never-end,streams-stall', '--reports', dir], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exit = new Promise<number | null>((done) => child.on('close', done));
    let certifying: number[] = [];
    for (let i = 0; i < 600 && certifying.length < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      certifying = certifyChildrenOf(child.pid!);
    }
    expect(certifying.length, output).toBeGreaterThanOrEqual(3);
    // Into their runs (past start-up, waiting on the target) before the signal comes.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    child.kill('SIGTERM');
    const code = await exit;
    expect(code, output).toBe(130);
    expect(output).toMatch(/stopping the certifications under way/);
    expect(output).toMatch(/interrupted: \d of 4 subjects ended/);
    expect(certifying.filter(alive)).toEqual([]);
    const report = JSON.parse(readFileSync(join(dir, 'selftest.json'), 'utf8')) as SelftestReport;
    expect(report.interrupted).toMatch(/SIGTERM/);
    // The fourth target never started: three run at a time.
    expect(report.hostile.length).toBeLessThan(4);
    expect(readFileSync(join(dir, 'selftest.md'), 'utf8')).toMatch(/^# apc selftest: interrupted/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
