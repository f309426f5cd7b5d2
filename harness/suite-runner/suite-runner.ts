// The one door between a certification and the machinery that runs its suites with vitest. A run
// (harness/run/execute.ts) hands a SuiteRunner its context, interfaces and ids and gets the tests'
// outcomes back; it does not know how the suites ran. Two runners keep that contract:
// `oneOffRunner` (one-off.ts) starts a vitest instance and its workers for the run and ends them
// with it, as `apc certify` does; SuiteBatches (batches.ts) keeps instances and worker processes
// from run to run and may carry the suites of several certifications in one vitest run, as
// `apc selftest` does to avoid a worker's start per subject.
import type { RunContext } from '../conformance/run-context.ts';
import type { InterfaceName } from '../profile/profile.ts';
import type { Redactor } from '../redact.ts';
import type { TestOutcome } from '../report/compliance.ts';
import type { RunListener } from './outcome-collector.ts';

export interface SuiteRunOptions {
  context: RunContext;
  /** The run's redactor: the errors and notes its tests end with pass it. */
  redactor: Pick<Redactor, 'text'>;
  interfaces: InterfaceName[];
  /** Only tests naming one of these ids run. */
  ids: string[];
  /** Suite workers at most (a runner that keeps its workers may use fewer). */
  workers: number;
  listener?: RunListener;
  /** Settles when the run must stop (an interrupt, --max-time): the suites end where they are. */
  stop?: Promise<unknown>;
}

export interface SuiteRunResult {
  outcomes: TestOutcome[];
  errors: string[];
  /** The suites were stopped before they finished; `outcomes` holds the tests that ended. */
  stopped: boolean;
}

export interface SuiteRunner {
  run(options: SuiteRunOptions): Promise<SuiteRunResult>;
}

export type { RunListener } from './outcome-collector.ts';
