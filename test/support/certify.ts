// Runs `apc certify` and returns its exit code, its output and the compliance.json it wrote.
// Self-certification tests use it against the reference implementation, with or without
// deliberate faults, and against small broken servers. `certify` runs it as a user would, a child
// process of its own: for tests of the process itself (its signals, its exit, what a real child
// prints). `certifyHere` reads the same command line and profile inside this process and runs it
// through the entry `apc certify` calls (harness/run/certify-run.ts): half the CPU of a child,
// which pays node's start and the harness's imports again for each run. The in-process runs share
// one suite worker and vitest instance, kept from run to run and from file to file of this test
// process, as apc selftest's certifications do (`keptSuiteWorkers`).
import { resolve } from 'node:path';
import { afterAll } from 'vitest';
import { withCertifyRequest } from '../../harness/cli/certify.ts';
import { certifyRun, type CertifyOutcome } from '../../harness/run/certify-run.ts';
import { certifyChild, type ChildCertifyOptions, type ChildCertifyRun } from '../../harness/selftest/certify-child.ts';
import { boundedInProcess, type InProcessOptions as RunOptions } from '../../harness/selftest/certify-in-process.ts';
import { SuiteBatches } from '../../harness/suite-runner/batches.ts';
import type { ComplianceReport, RequirementResult } from '../../harness/report/compliance.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..');

export interface CertifyRun extends ChildCertifyRun {
  report: ComplianceReport | undefined;
  /** Status of a requirement in the report (undefined when not selected). */
  status(id: string): RequirementResult['status'] | undefined;
  result(id: string): RequirementResult | undefined;
}

export type CertifyOptions = ChildCertifyOptions;

function withLookups(run: ChildCertifyRun): CertifyRun {
  const result = (id: string) => run.report?.requirements.find((r) => r.id === id);
  return { ...run, result, status: (id) => result(id)?.status };
}

export async function certify(options: CertifyOptions): Promise<CertifyRun> {
  return withLookups(await certifyChild(options));
}

/**
 * `apc certify` inside this process. At `timeoutMs` the run is stopped as by a first SIGTERM (exit
 * 130, a partial report) rather than killed. `run` defaults to the test process's kept suite
 * worker (`keptSuiteWorkers()`), which costs the least CPU: its certifications go one at a time;
 * `{}` leaves the number of workers to the run, as a user's run does.
 */
export async function certifyHere(options: CertifyOptions, run: RunOptions = keptSuiteWorkers()): Promise<CertifyRun> {
  const certified = await boundedInProcess(options, async (io, stop, reportDir) => {
    let outcome: CertifyOutcome | undefined;
    const code = await withCertifyRequest(['--reports', reportDir, '--quiet', ...options.args], io, stop, async (request) => {
      // The profile as a document, as a file of it would give it.
      if (options.profile) request.run.settings.profileDocument = options.profile;
      outcome = await certifyRun({ ...request, ...run });
      return outcome.code;
    });
    return { ...outcome, code, reportDir };
  });
  return withLookups(certified);
}

/** The suite runner of `keptSuiteWorkers()`: one per test process, made on first use. */
let kept: SuiteBatches | undefined;

/**
 * `certifyHere`'s second argument for certifications that need no worker of their own: one suite
 * worker and one vitest instance kept from run to run (harness/suite-runner/batches.ts, as apc
 * selftest keeps them), each run still with its own plan, target, context, deadline and report.
 * A new worker per run loaded node, vitest's runtime, the harness and the suites again: about 1 s
 * of CPU a certification. With one lane (the default) the runner is this test process's, shared by
 * the files it runs one after another (vitest.config.ts: isolate false) and never closed: its
 * waiting worker ends with this process's IPC channel (kept-workers.ts). `lanes`: how many of the
 * file's certifications go side by side (tests that run concurrently), each lane its own vitest
 * run; such a runner is the file's, closed after its tests, so call it at the top of the file.
 */
export function keptSuiteWorkers(lanes = 1): RunOptions {
  if (lanes === 1) return { workers: 1, suites: (kept ??= SuiteBatches.alone(1)) };
  const batches = SuiteBatches.alone(lanes);
  afterAll(() => batches.close());
  return { workers: 1, suites: batches };
}
