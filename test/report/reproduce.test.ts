// Every reproduction a report prints reproduces the failure on the target as it was certified:
// the "run this check again" line (pasted into a shell as a user would), `apc certify --replay`,
// and, for the reference, the `apc serve` line under which the recorded curl lines fail again.
// One failure of each kind: a fault switch of the reference, a URL target, and a property's
// counterexample. A reproduction that passed would teach the reader the failure was a fluke. The
// printed lines run in a shell, as pasted; the certifications they reproduce, and --replay, run
// inside this process (`certifyHere`).
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { FailureRecord } from '../../harness/conformance/failure.ts';
import type { ComplianceReport } from '../../harness/report/compliance.ts';
import { serveLine } from '../../harness/report/reproduction.ts';
import { startReference } from '../../reference-impl/index.ts';
import { certifyHere, keptSuiteWorkers, ROOT } from '../support/certify.ts';

const work = mkdtempSync(join(tmpdir(), 'apc-reproduce-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const APC = `node ${join(ROOT, 'bin', 'apc.mjs')}`;

const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, 'compliance.json'), 'utf8')) as ComplianceReport;
const failureOf = (report: ComplianceReport, id: string): FailureRecord => {
  const failure = report.requirements.find((r) => r.id === id)?.failures[0];
  if (!failure) throw new Error(`${id} has no failure in ${report.runId}: ${JSON.stringify(report.requirements.map((r) => [r.id, r.status]))}`);
  return failure;
};

/** Runs a printed line in a shell, as a user pastes it (asynchronously: an in-process target keeps answering). */
async function shell(line: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('sh', ['-c', line], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { code, stdout, stderr };
}

/** Runs a printed `apc certify ...` line, writing its report to a new folder. */
async function paste(line: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; report: ComplianceReport; output: string }> {
  // In a clone `apc` is not on PATH: the line says `npx apc` (harness/apc-command.ts).
  expect(line.startsWith('npx apc certify ')).toBe(true);
  const out = mkdtempSync(join(work, 'again-'));
  const run = await shell(`${APC}${line.slice('npx apc'.length)} --reports ${out} --quiet`, env);
  return { code: run.code, report: readReport(out), output: run.stdout + run.stderr };
}

/** The description of a requirement's Allure result, where Allure shows how to reproduce it. */
function allureDescription(dir: string, id: string): string {
  const results = join(dir, 'allure-results');
  const files = readdirSync(results).filter((f) => f.endsWith('-result.json'));
  const result = files.map((f) => JSON.parse(readFileSync(join(results, f), 'utf8')) as { name: string; description: string }).find((r) => r.name.startsWith(`${id} `));
  return result?.description ?? '';
}

// The certifications and replays inside this process share a suite worker, kept from run to run.
const suites = keptSuiteWorkers();

async function certified(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ dir: string; report: ComplianceReport }> {
  const dir = mkdtempSync(join(work, 'run-'));
  const run = await certifyHere({ args, env, reportDir: dir }, suites);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  return { dir, report: readReport(dir) };
}

async function replayFails(dir: string, id: string, env: NodeJS.ProcessEnv = {}): Promise<ComplianceReport> {
  const out = mkdtempSync(join(work, 'replay-'));
  const run = await certifyHere({ args: ['--replay', dir], env, reportDir: out }, suites);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  const again = readReport(out);
  expect(again.requirements.find((r) => r.id === id)?.status).toBe('failed');
  return again;
}

describe('a fault switch of the reference', () => {
  test('the report records the fault; the run-again line and --replay turn it on again and fail again', async () => {
    const { dir, report } = await certified(['--reference-fault', 'cp.revisions-oldest-first', '--requirements', 'CP-REVL-002']);
    expect(report.target).toMatchObject({ reference: true, faults: ['cp.revisions-oldest-first'] });
    const failure = failureOf(report, 'CP-REVL-002');
    expect(failure.repro).toContain('--reference-fault cp.revisions-oldest-first');
    const again = await paste(failure.repro);
    expect(again.code, again.output).toBe(1);
    expect(again.report.requirements.find((r) => r.id === 'CP-REVL-002')?.status).toBe('failed');
    const replayed = await replayFails(dir, 'CP-REVL-002');
    expect(replayed.target.faults).toEqual(['cp.revisions-oldest-first']);
    // Every format that prints the run-again line prints it whole, Allure's description too.
    for (const file of ['compliance.md', 'compliance.html', 'junit.xml']) expect(readFileSync(join(dir, file), 'utf8'), file).toContain('--reference-fault cp.revisions-oldest-first');
    expect(allureDescription(dir, 'CP-REVL-002')).toContain(failure.repro);
  }, 600_000);

  test('a platform-like reference: the report records its behaviours and time scale; the run-again line, --replay and the apc serve line start it so again', async () => {
    const platformLike = { behaviours: ['small-pages'], timeScale: 0.5 };
    const { dir, report } = await certified(['--reference-fault', 'cp.revisions-oldest-first', '--reference-platform-like', 'small-pages', '--reference-time-scale', '0.5', '--requirements', 'CP-REVL-002']);
    expect(report.target).toMatchObject({ reference: true, faults: ['cp.revisions-oldest-first'], platformLike });
    const failure = failureOf(report, 'CP-REVL-002');
    expect(failure.repro).toContain('--reference-platform-like small-pages --reference-time-scale 0.5');
    expect(serveLine(report.target)).toContain('--fault cp.revisions-oldest-first --platform-like small-pages --time-scale 0.5');
    // The replay starts the reference as it was certified, and its own run-again line says so again.
    const replayed = await replayFails(dir, 'CP-REVL-002');
    expect(replayed.target).toMatchObject({ faults: ['cp.revisions-oldest-first'], platformLike });
    expect(failureOf(replayed, 'CP-REVL-002').repro).toContain('--reference-platform-like small-pages --reference-time-scale 0.5');
  }, 600_000);

  test('the curl lines fail again on the reference started by the printed apc serve line', async () => {
    const { dir, report } = await certified(['--reference-fault', 'cp.not-found-plain-text', '--requirements', 'CP-ERR-001']);
    const failure = failureOf(report, 'CP-ERR-001');
    const serve = serveLine(report.target)!;
    expect(serve).toContain('--fault cp.not-found-plain-text');
    for (const file of ['compliance.md', 'compliance.html', 'junit.xml']) expect(readFileSync(join(dir, file), 'utf8'), file).toContain(serve.replace(/"/g, file === 'compliance.md' ? '"' : '&quot;'));
    expect(allureDescription(dir, 'CP-ERR-001')).toContain(serve);
    const key = `apc-reproduce-${randomBytes(6).toString('hex')}`;
    expect(serve.startsWith('npx apc serve ')).toBe(true);
    const server = spawn('sh', ['-c', `exec ${APC}${serve.slice('npx apc'.length)}`], { cwd: ROOT, env: { ...process.env, APC_API_KEY: key }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await new Promise<void>((ready, fail) => {
        let out = '';
        server.stdout.on('data', (d: Buffer) => (out += d.toString()) && out.includes('Press Ctrl-C') && ready());
        server.on('exit', (code) => fail(new Error(`apc serve exited ${code}: ${out}`)));
      });
      const curl = failure.exchanges.at(-1)!.curl;
      const sent = await shell(`${curl} -w '\\n%{http_code}'`, { APC_API_KEY: key });
      const [body, status] = [sent.stdout.slice(0, sent.stdout.lastIndexOf('\n')), sent.stdout.slice(sent.stdout.lastIndexOf('\n') + 1)];
      // The rule wants a JSON {"detail": ...} body; the fault answers plain text, as recorded.
      expect(status).toBe('404');
      expect(() => JSON.parse(body)).toThrow();
      expect(failure.exchanges.at(-1)!.response).toContain(body.trim());
    } finally {
      server.kill('SIGTERM');
    }
  }, 600_000);
});

describe('a URL target', () => {
  test('the run-again line and --replay name the URL and its profile, and fail again', async () => {
    const key = `KNOWN-KEY-${randomBytes(8).toString('hex')}`;
    const tenant = randomUUID();
    const server = await startReference({ apiKeys: [{ key, tenants: [tenant] }], phaseMs: 10, faults: ['cp.revisions-oldest-first'] });
    try {
      const env = { APC_API_KEY: key };
      const { dir, report } = await certified(['--control-plane-url', server.urls.controlPlane, '--tenant-id', tenant, '--interfaces', 'control-plane', '--requirements', 'CP-REVL-002'], env);
      expect(report.target.faults).toBeUndefined();
      const failure = failureOf(report, 'CP-REVL-002');
      expect(failure.repro).toContain(`--control-plane-url ${server.urls.controlPlane}`);
      expect(failure.repro).not.toContain(key);
      const again = await paste(failure.repro, env);
      expect(again.code, again.output).toBe(1);
      expect(again.report.requirements.find((r) => r.id === 'CP-REVL-002')?.status).toBe('failed');
      await replayFails(dir, 'CP-REVL-002', env);
    } finally {
      await server.close();
    }
  }, 600_000);
});

describe("a property's counterexample", () => {
  test('the run-again line regenerates the same input and fails again; so does --replay', async () => {
    const { dir, report } = await certified(['--reference-fault', 'cp.validation-as-400', '--requirements', 'CP-ERR-003']);
    const failure = failureOf(report, 'CP-ERR-003');
    expect(failure.input).toBeDefined();
    const again = await paste(failure.repro);
    expect(again.code, again.output).toBe(1);
    expect(failureOf(again.report, 'CP-ERR-003').input).toBe(failure.input);
    const replayed = await replayFails(dir, 'CP-ERR-003');
    expect(failureOf(replayed, 'CP-ERR-003').input).toBe(failure.input);
  }, 600_000);
});
