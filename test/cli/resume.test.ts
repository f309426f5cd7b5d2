// `apc certify --resume DIR`: a certification of the reference stopped halfway (SIGINT), then
// resumed, ends with one report of the same run id and seed whose verdict and statuses are those
// of a run that was never interrupted. The interrupted run is a child process, stopped by a signal;
// the others run inside this process (test/support/apc-here.ts; the uninterrupted one on one suite
// worker, `certifyHere`).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { ComplianceReport } from '../../harness/report/compliance.ts';
import { apcHere } from '../support/apc-here.ts';
import { certifyHere, ROOT } from '../support/certify.ts';

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const SELECTION = ['--interfaces', 'control-plane', '--seed', '5'];

/** Runs `apc certify args` in a child process and sends it SIGINT once `interruptAfter` tests are done. */
async function certifyInterrupted(args: string[], interruptAfter: number): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), 'certify', ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let sent = false;
  const seen = (d: Buffer) => {
    output += d.toString();
    const done = Math.max(0, ...[...output.matchAll(/\[(\d+) tests done\]/g)].map((m) => Number(m[1])));
    if (!sent && done >= interruptAfter) {
      sent = true;
      child.kill('SIGINT');
    }
  };
  child.stdout.on('data', seen);
  child.stderr.on('data', seen);
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { code, output };
}

/** Runs `apc certify args` inside this process. */
async function certify(args: string[]): Promise<{ code: number; output: string }> {
  const run = await apcHere(['certify', ...args]);
  return { code: run.code, output: run.stdout + run.stderr };
}

const reportIn = (dir: string) => JSON.parse(readFileSync(join(dir, 'compliance.json'), 'utf8')) as ComplianceReport;
const statuses = (report: ComplianceReport) => Object.fromEntries(report.requirements.map((r) => [r.id, r.status]));

describe('apc certify --resume', () => {
  test('an interrupted certification of the reference, resumed, equals an uninterrupted one', async () => {
    const parts = mkdtempSync(join(tmpdir(), 'apc-resume-'));
    folders.push(parts);
    // The run never interrupted, on one suite worker (`certifyHere`): which worker ran a test changes no status.
    const uninterrupted = await certifyHere({ args: SELECTION });
    expect(uninterrupted.code, uninterrupted.stdout + uninterrupted.stderr).toBe(0);
    const whole = uninterrupted.report!;

    // Stopped once some suite files are done: the rest of the control plane is not judged yet.
    const first = await certifyInterrupted([...SELECTION, '--reports', parts], 20);
    expect(first.code, first.output).toBe(130);
    const interrupted = reportIn(parts);
    expect(interrupted.verdict).toBe('interrupted');
    expect(interrupted.verdictReason).toContain(`npx apc certify --resume ${parts}`);
    const notRun = interrupted.requirements.filter((r) => r.reason?.startsWith('not run: ')).map((r) => r.id);
    expect(notRun.length).toBeGreaterThan(0);
    expect(notRun.length).toBeLessThan(interrupted.requirements.length);

    const resumed = await certify(['--resume', parts, '--quiet']);
    expect(resumed.code, resumed.output).toBe(0);
    const merged = reportIn(parts);
    expect(merged).toMatchObject({ runId: interrupted.runId, seed: 5, startedAt: interrupted.startedAt, verdict: whole.verdict });
    expect(merged.replayOf).toBeUndefined();
    expect(statuses(merged)).toEqual(statuses(whole));

    // A finished run has nothing to resume: a usage problem, with what to do instead.
    const again = await certify(['--resume', parts]);
    expect(again.code).toBe(2);
    expect(again.output).toMatch(/was not interrupted \(verdict certified\): there is nothing to resume/);
  }, 300_000);

  // A resumed run is the same run under the same budget: what its earlier part created (deleted at
  // the interrupt, but paid for) is taken off the budget before its tests are planned, so the
  // report, which adds both parts, never creates more than the budget.
  test('a budgeted run, interrupted and resumed, creates no more in both parts than its budget', async () => {
    const parts = mkdtempSync(join(tmpdir(), 'apc-resume-budget-'));
    folders.push(parts);
    const budget = { deployments: 13, revisions: 41 };
    const args = [...SELECTION, '--budget', `deployments=${budget.deployments},revisions=${budget.revisions}`, '--reports', parts];
    const first = await certifyInterrupted(args, 20);
    expect(first.code, first.output).toBe(130);
    const earlier = reportIn(parts).cost!.created['control-plane'] ?? {};
    expect(earlier.deployments, first.output).toBeGreaterThan(0);

    const resumed = await certify(['--resume', parts, '--quiet']);
    expect([0, 1], resumed.output).toContain(resumed.code);
    const merged = reportIn(parts);
    const created = merged.cost!.created['control-plane']!;
    expect(created.deployments, resumed.output).toBeLessThanOrEqual(budget.deployments);
    expect(created.revisions ?? 0, resumed.output).toBeLessThanOrEqual(budget.revisions);
    // What the budget could no longer cover goes unjudged (skipped, "budget"); nothing failed.
    expect(merged.requirements.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([]);
  }, 300_000);
});
