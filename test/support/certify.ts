// Runs `apc certify` as a user would (a child process) and returns its exit code, its output and
// the compliance.json it wrote. Self-certification tests use it against the reference
// implementation, with or without deliberate faults, and against small broken servers.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import type { ComplianceReport, RequirementResult } from '../../harness/report/compliance.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'apc.mjs');

export interface CertifyRun {
  code: number | null;
  stdout: string;
  stderr: string;
  report: ComplianceReport | undefined;
  reportDir: string;
  /** Status of a requirement in the report (undefined when not selected). */
  status(id: string): RequirementResult['status'] | undefined;
  result(id: string): RequirementResult | undefined;
}

export interface CertifyOptions {
  /** Extra command-line arguments (target URLs, --requirements, --reference-fault ...). */
  args: string[];
  /** A target profile, written to a temporary YAML file given as --profile. */
  profile?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  /** Kill the run after this long (the test then fails on a null code). Default 240 s. */
  timeoutMs?: number;
  /** Keep the report folder (default: removed after reading). */
  keepReports?: boolean;
  reportDir?: string;
}

export async function certify(options: CertifyOptions): Promise<CertifyRun> {
  if (!options.profile) return run(options, []);
  const dir = mkdtempSync(join(tmpdir(), 'apc-selftest-'));
  const file = join(dir, 'profile.yaml');
  writeFileSync(file, stringify(options.profile));
  try {
    return await run(options, ['--profile', file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function run(options: CertifyOptions, profileArgs: string[]): Promise<CertifyRun> {
  const reportDir = options.reportDir ?? mkdtempSync(join(tmpdir(), 'apc-report-'));
  const args = [BIN, 'certify', '--reports', reportDir, '--quiet', ...profileArgs, ...options.args];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 240_000);
  const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
  clearTimeout(timer);
  const file = join(reportDir, 'compliance.json');
  const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ComplianceReport) : undefined;
  if (!options.keepReports && !options.reportDir) rmSync(reportDir, { recursive: true, force: true });
  const result = (id: string) => report?.requirements.find((r) => r.id === id);
  return { code, stdout, stderr, report, reportDir, result, status: (id) => result(id)?.status };
}
