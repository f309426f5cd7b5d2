// Which certification a suite file belongs to. A user's `apc certify` gives its suite workers one
// run context (vitest's provide, `apcRun`). apc selftest certifies many subjects and runs their
// suites in shared vitest runs (harness/run/suite-batches.ts), so that each worker loads the
// suites and the harness once for many subjects: there every file is given as
// `<suite>.suite.ts?apc-run=<key>` and `apcRuns` holds each key's context. A worker runs one file
// at a time; everything a test keeps per run (limiter, pool) is keyed by the run's id.
import { inject } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import { redactor } from '../redact.ts';
import type { RunContext } from './run-context.ts';
import { splitRunKey } from './run-key.ts';

const known = new Map<string, RunContext>();

/** The run context of the suite file with id `fileId` (its path as vitest knows it). */
export function runOfFile(fileId: string): RunContext {
  const { key } = splitRunKey(fileId);
  const cacheKey = key ?? '';
  let run = known.get(cacheKey);
  if (!run) {
    run = key === undefined ? inject('apcRun') : inject('apcRuns')?.[key];
    if (!run) throw new Error('Conformance suites run through `apc certify`, which provides the target profile.');
    redactor.add(run.profile.apiKey, run.profile.otherTenant?.apiKey, ...run.profile.redact);
    known.set(cacheKey, run);
  }
  return run;
}

/** The run context of the suite file being collected (a suite's top level, where tests are declared). */
export function runOfCollectedFile(): RunContext {
  return runOfFile(getCurrentSuite().file.filepath);
}
