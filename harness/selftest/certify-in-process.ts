// Runs `apc certify` inside this process: the same command, flags and profile file as a user's
// run, without a process of its own. apc selftest certifies its mutants and variations this way:
// a process per subject paid node's start and the harness's imports again for every one of them,
// more than many subjects' checks cost.
//
// Runs stay independent side by side: each has its own reference and proxy (own ports), its own
// run id (resource names), report folder, vitest instance and suite worker processes, and its own
// stop. What they share is read-only (the catalogue, compiled schemas) or only ever grows (the
// redactor's list of secrets, so one run's keys are masked in every run's output).
import { certify, type CertifyOptions } from '../cli/certify.ts';
import type { StopRequest } from '../run/run-stop.ts';
import { reportDirOf, takeReport, withProfileFile, type ChildCertifyOptions, type ChildCertifyRun } from './certify-child.ts';

/**
 * `run`: how the certification runs. By default one suite worker and no allure-results: a second
 * worker's start costs more CPU than its parallelism saves when apc selftest runs several
 * certifications side by side (their waits overlap instead), and the selftest reads only
 * compliance.json. A test of a run whose waits must overlap (a worker per suite file) passes `{}`.
 */
export async function certifyInProcess(options: ChildCertifyOptions, run: CertifyOptions = { allure: false, workers: 1 }): Promise<ChildCertifyRun> {
  return withProfileFile(options.profile, async (profileArgs) => {
    const reportDir = reportDirOf(options);
    let stdout = '';
    let stderr = '';
    const io = {
      out: { write: (text: string) => void (stdout += text) },
      err: { write: (text: string) => void (stderr += text) },
      env: { ...process.env, NO_COLOR: '1', ...options.env },
    };
    // At its bound, or when apc selftest is interrupted, the run stops as on a first SIGTERM:
    // its suites end where they are and it writes its (partial) report.
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop: StopRequest = {
      requested: new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`the run passed its bound of ${Math.round((options.timeoutMs ?? 240_000) / 1000)} s`), options.timeoutMs ?? 240_000);
        onAbort = () => resolve('apc selftest was interrupted');
        if (options.signal?.aborted) onAbort();
        else options.signal?.addEventListener('abort', onAbort, { once: true });
      }),
    };
    const started = Date.now();
    try {
      const code = await certify(['--reports', reportDir, '--quiet', ...profileArgs, ...options.args], io, stop, run);
      return { code, stdout, stderr, report: takeReport(options, reportDir), reportDir, durationMs: Date.now() - started };
    } finally {
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    }
  });
}
