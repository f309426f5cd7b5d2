// Runs a certification inside this process (harness/run/certify-run.ts, the entry `apc certify`
// calls): apc selftest certifies its mutants and variations this way. A process per subject paid
// node's start and the harness's imports again for every one of them, more than many subjects'
// checks cost.
//
// Runs stay independent side by side: each has its own reference and proxy (own ports), its own
// run id (resource names), report folder, redactor (RunDraft; a suite worker's SuiteRun), suite
// runner or a share of apc selftest's, and its own stop. What they share is read-only (the
// catalogue, compiled schemas).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { certifyRun, type CertifyOutcome, type CertifyRequest } from '../run/certify-run.ts';
import type { RunRequest } from '../run/plan.ts';
import type { Output } from '../run/progress.ts';
import type { StopRequest } from '../run/run-stop.ts';
import type { ChildCertifyRun } from './certify-child.ts';

/** How a certification in this process runs: its suite runner and workers, and whether it writes allure-results. */
export type InProcessOptions = Pick<CertifyRequest, 'allure' | 'workers' | 'suites' | 'ownSeedJudged'>;

export interface InProcessBounds {
  /** Variables besides this process's (keys: APC_API_KEY ...). */
  env?: NodeJS.ProcessEnv;
  /** Stops the run (as a first SIGTERM) after this long. Default 240 s. */
  timeoutMs?: number;
  /** Stops the run as a first SIGTERM does (it ends its suites, cleans up, writes a partial report). */
  signal?: AbortSignal;
  /** Where the reports go (default: a temporary folder, removed after the run unless keepReports). */
  reportDir?: string;
  keepReports?: boolean;
}

/**
 * Certifies what `run` asks (its reports go to a folder of the bounds'). `options` by default: one
 * suite worker and no allure-results. A second worker's start costs more CPU than its parallelism
 * saves when apc selftest runs several certifications side by side (their waits overlap
 * instead), and the selftest reads only the report.
 */
export function certifyInProcess(
  run: RunRequest,
  bounds: InProcessBounds,
  options: InProcessOptions = { allure: false, workers: 1 },
): Promise<ChildCertifyRun> {
  return boundedInProcess(bounds, (io, stop, reportDir) => certifyRun({ run: { ...run, reports: reportDir }, ...io, quiet: true, stop, ...options }));
}

/**
 * Runs `certification` with output collected as text, and a stop that comes at the bound or when
 * the signal aborts: the run then ends as on a first SIGTERM, its suites where they are, and
 * writes its (partial) report.
 */
export async function boundedInProcess(
  bounds: InProcessBounds,
  certification: (io: { out: Output; err: Output; env: NodeJS.ProcessEnv }, stop: StopRequest, reportDir: string) => Promise<CertifyOutcome>,
): Promise<ChildCertifyRun> {
  const reportDir = bounds.reportDir ?? mkdtempSync(join(tmpdir(), 'apc-report-'));
  let stdout = '';
  let stderr = '';
  const io = {
    out: { write: (text: string) => void (stdout += text) },
    err: { write: (text: string) => void (stderr += text) },
    env: { ...process.env, NO_COLOR: '1', ...bounds.env },
  };
  const timeoutMs = bounds.timeoutMs ?? 240_000;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop: StopRequest = {
    requested: new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`the run passed its bound of ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
      onAbort = () => resolve('apc selftest was interrupted');
      if (bounds.signal?.aborted) onAbort();
      else bounds.signal?.addEventListener('abort', onAbort, { once: true });
    }),
  };
  const started = Date.now();
  try {
    const { code, report } = await certification(io, stop, reportDir);
    return { code, stdout, stderr, report, reportDir, durationMs: Date.now() - started };
  } finally {
    clearTimeout(timer);
    if (onAbort) bounds.signal?.removeEventListener('abort', onAbort);
    if (!bounds.keepReports && !bounds.reportDir) rmSync(reportDir, { recursive: true, force: true });
  }
}
