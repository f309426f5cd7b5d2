// Which certification a suite file belongs to. A user's `apc certify` gives its suite workers one
// run context (vitest's provide, `apcRun`). apc selftest certifies many subjects and runs their
// suites in shared vitest runs (harness/suite-runner/batches.ts), so that each worker loads the
// suites and the harness once for many subjects: there every file is given as
// `<suite>.suite.ts?apc-run=<key>` and `apcRuns` holds each key's context. A worker runs one file
// at a time; everything a test keeps per run (limiter, pool) is keyed by the run's id.
import { inject } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import { redactor } from '../redact.ts';
import type { RunContext } from './run-context.ts';
import { splitRunKey } from './run-key.ts';

/** Run ids whose secrets the redactor already knows. */
const redacted = new Set<string>();

/** The run context of the suite file with id `fileId` (its path as vitest knows it). */
export function runOfFile(fileId: string): RunContext {
  const { key } = splitRunKey(fileId);
  // Read from this run's provided contexts each time (a property read), never kept by key: in
  // apc selftest a key names another certification in each batch, and should a worker ever serve
  // a later batch (vitest 4.1 starts new ones for each run), it must not answer with an earlier one.
  const run = key === undefined ? inject('apcRun') : inject('apcRuns')?.[key];
  if (!run) throw new Error('Conformance suites run through `apc certify`, which provides the target profile.');
  if (!redacted.has(run.runId)) {
    redactor.add(run.profile.apiKey, run.profile.otherTenant?.apiKey, ...run.profile.redact);
    redacted.add(run.runId);
  }
  return run;
}

/** The run context of the suite file being collected (a suite's top level, where tests are declared). */
export function runOfCollectedFile(): RunContext {
  return runOfFile(getCurrentSuite().file.filepath);
}
