// Which certification a suite file belongs to. A user's `apc certify` gives its suite workers one
// run context (vitest's provide, `apcRun`). apc selftest certifies many subjects and runs their
// suites in shared vitest runs (harness/suite-runner/batches.ts), so that each worker loads the
// suites and the harness once for many subjects: there every file is given as
// `<suite>.suite.ts?apc-run=<key>` and `apcRuns` holds each key's context. A worker runs one file
// at a time; what a run's tests share in the worker (redactor, limiter, names) is its SuiteRun.
import { inject } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import type { RunContext } from './run-context.ts';
import { splitRunKey } from './run-key.ts';
import { SuiteRun } from './suite-run.ts';

/**
 * The runs this worker serves now, by run id: the one place a worker keeps a run's state, so that
 * the files of one run share it (test/harness/run-state.test.ts allows this Map alone). A file
 * reaches only the entry of its own run's id, and runs no longer provided are forgotten, their
 * secrets with them.
 */
const served = new Map<string, SuiteRun>();

/** The run context of the suite file with id `fileId` (its path as vitest knows it). */
export function runOfFile(fileId: string): RunContext {
  const { key } = splitRunKey(fileId);
  // Read from this run's provided contexts each time (a property read), never kept by key: in
  // apc selftest a key names another certification in each batch, and should a worker ever serve
  // a later batch (vitest 4.1 starts new ones for each run), it must not answer with an earlier one.
  const run = key === undefined ? inject('apcRun') : inject('apcRuns')?.[key];
  if (!run) throw new Error('Conformance suites run through `apc certify`, which provides the target profile.');
  return run;
}

/** The SuiteRun of the suite file with id `fileId`: made when the worker first runs a file of that run. */
export function suiteRunOf(fileId: string): SuiteRun {
  const context = runOfFile(fileId);
  let run = served.get(context.runId);
  if (!run) {
    const provided = new Set([inject('apcRun'), ...Object.values(inject('apcRuns') ?? {})].map((c) => c?.runId));
    for (const id of served.keys()) if (!provided.has(id)) served.delete(id);
    run = new SuiteRun(context);
    served.set(context.runId, run);
  }
  return run;
}

/** The run context of the suite file being collected (a suite's top level, where tests are declared). */
export function runOfCollectedFile(): RunContext {
  return runOfFile(getCurrentSuite().file.filepath);
}

/** The SuiteRun of the suite file being collected. */
export function suiteRunOfCollectedFile(): SuiteRun {
  return suiteRunOf(getCurrentSuite().file.filepath);
}
