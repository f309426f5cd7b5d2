// Runs `apc certify` as a user would: a child process of its own, given a profile file and flags,
// killed at a bound. apc selftest certifies each of its targets this way (a hung or crashing run
// stays contained), and so do the project's own CLI tests (test/support/certify.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { ComplianceReport } from '../report/compliance.ts';
import { ROOT } from '../root.ts';

const BIN = join(ROOT, 'bin', 'apc.mjs');

export interface ChildCertifyOptions {
  /** Extra command-line arguments (target URLs, --requirements, --reference-fault ...). */
  args: string[];
  /** A target profile, written to a temporary YAML file given as --profile. */
  profile?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  /** Kill the run after this long (its code is then null). Default 240 s. */
  timeoutMs?: number;
  /** Stops the run as a first SIGTERM does (it ends its suites, cleans up, writes a partial report). */
  signal?: AbortSignal;
  /** Where the reports go (default: a temporary folder, removed after reading unless keepReports). */
  reportDir?: string;
  keepReports?: boolean;
}

export interface ChildCertifyRun {
  code: number | null;
  stdout: string;
  stderr: string;
  report: ComplianceReport | undefined;
  reportDir: string;
  durationMs: number;
}

export async function certifyChild(options: ChildCertifyOptions): Promise<ChildCertifyRun> {
  return withProfileFile(options.profile, (profileArgs) => run(options, profileArgs));
}

/** Calls `body` with the flags naming the profile, written to a temporary YAML file for the run. */
export async function withProfileFile<T>(profile: Record<string, unknown> | undefined, body: (profileArgs: string[]) => Promise<T>): Promise<T> {
  if (!profile) return body([]);
  const dir = mkdtempSync(join(tmpdir(), 'apc-profile-'));
  const file = join(dir, 'profile.yaml');
  writeFileSync(file, stringify(profile));
  try {
    return await body(['--profile', file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The report folder of a run: the given one, or a temporary one. */
export function reportDirOf(options: ChildCertifyOptions): string {
  return options.reportDir ?? mkdtempSync(join(tmpdir(), 'apc-report-'));
}

/** Reads the run's compliance report, if it wrote one, and removes a temporary report folder. */
export function takeReport(options: ChildCertifyOptions, reportDir: string): ComplianceReport | undefined {
  const file = join(reportDir, 'compliance.json');
  const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ComplianceReport) : undefined;
  if (!options.keepReports && !options.reportDir) rmSync(reportDir, { recursive: true, force: true });
  return report;
}

async function run(options: ChildCertifyOptions, profileArgs: string[]): Promise<ChildCertifyRun> {
  const reportDir = reportDirOf(options);
  const args = [BIN, 'certify', '--reports', reportDir, '--quiet', ...profileArgs, ...options.args];
  const started = Date.now();
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
  const stop = () => child.kill('SIGTERM');
  options.signal?.addEventListener('abort', stop, { once: true });
  const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', stop);
  const durationMs = Date.now() - started;
  return { code, stdout, stderr, report: takeReport(options, reportDir), reportDir, durationMs };
}
