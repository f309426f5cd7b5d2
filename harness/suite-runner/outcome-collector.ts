// A vitest reporter that turns finished conformance tests into TestOutcomes, and tells the
// progress printer as each test ends.
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { SerializedError } from 'vitest';
import type { Redactor } from '../redact.ts';
import type { TestOutcome } from '../report/compliance.ts';
import { splitRunKey } from '../conformance/run-key.ts';

export interface RunListener {
  outcome?(outcome: TestOutcome): void;
  /** A suite file finished; `file` is relative to the project root. */
  fileEnd?(file: string): void;
}

export class OutcomeCollector implements Reporter {
  readonly outcomes: TestOutcome[] = [];
  readonly errors: string[] = [];

  constructor(
    private readonly redactor: Pick<Redactor, 'text'>,
    private readonly listener: RunListener = {},
  ) {}

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result();
    if (result.state === 'pending') return;
    const meta = testCase.meta();
    // A test that --requirements filtered out never started: it is no outcome of this run.
    if (result.state === 'skipped' && meta.requirements === undefined) return;
    const errorText = result.state === 'failed' ? result.errors?.map((e) => e.message).join('\n') : undefined;
    const outcome: TestOutcome = {
      title: testCase.name,
      file: splitRunKey(testCase.module.relativeModuleId).file,
      requirements: meta.requirements ?? [],
      state: result.state,
      failures: meta.failures ?? [],
      durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
      checks: meta.checks ?? {},
      properties: meta.properties ?? [],
      ...(meta.created ? { created: meta.created } : {}),
      ...(meta.requests ? { requests: meta.requests } : {}),
      ...(meta.cost ? { cost: meta.cost } : {}),
      ...(meta.notApplicable ? { notApplicable: meta.notApplicable } : {}),
      ...(meta.notJudged ? { notJudged: meta.notJudged } : {}),
      ...(meta.transient ? { transient: meta.transient } : {}),
      ...(meta.keptRefusing ? { keptRefusing: true } : {}),
      ...(meta.attributed ? { attributed: meta.attributed } : {}),
      ...(meta.alsoSeen ? { alsoSeen: meta.alsoSeen } : {}),
      ...(meta.bodyEnded ? { bodyEnded: true } : {}),
      ...(result.state === 'skipped' && result.note ? { note: result.note } : {}),
      ...(errorText ? { note: this.redactor.text(errorText) } : {}),
    };
    this.outcomes.push(outcome);
    this.listener.outcome?.(outcome);
  }

  onTestModuleEnd(testModule: TestModule): void {
    const file = splitRunKey(testModule.relativeModuleId).file;
    for (const error of testModule.errors()) this.errors.push(this.redactor.text(`${file}: ${error.message}`));
    this.listener.fileEnd?.(file);
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): void {
    for (const error of unhandled) this.errors.push(this.redactor.text(`unhandled error: ${error.message}`));
  }
}
