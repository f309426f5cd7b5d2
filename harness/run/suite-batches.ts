// apc selftest certifies a couple of hundred subjects, each with its own reference, run id and
// report. When each certification started a vitest and a suite worker of its own, that worker's
// start (node, vitest's runtime, the harness, the suites, fast-check and undici loaded again) was
// a quarter of a subject's CPU. Here the suites of several certifications run in one vitest run
// whose workers load all that once: each certification's files are given as
// `<file>?apc-run=<its place in the batch>` (harness/conformance/run-key.ts), its tests read its own context
// (run-of-file.ts), and what they report goes to it alone. Everything else of a certification
// stays its own: plan, target, limiter, pool, deadline, verdict and report.
//
// A run of one certification is runSuites (run-suites.ts); this is the same contract for many.
import type { Vitest } from 'vitest/node';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { SerializedError } from 'vitest';
import { fileOfRun, splitRunKey } from '../conformance/run-key.ts';
import { redactor } from '../redact.ts';
import { OutcomeCollector } from './outcome-collector.ts';
import { runToEnd, suiteFiles, suiteFilesNaming, suiteVitest, titlePattern, withoutVitestSignals, type SuiteRunOptions, type SuiteRunResult } from './run-suites.ts';

export interface BatchSettings {
  /** Shared vitest runs at a time. */
  lanes: number;
  /** Suite workers of each. */
  workers: number;
  /** Certifications one vitest run carries at most. */
  size: number;
  /** How long a free lane waits for a full batch before it starts with fewer. */
  gatherMs: number;
}

interface Pending {
  options: SuiteRunOptions;
  files: string[];
  collector: OutcomeCollector;
  /** Resolved: stopped, or its batch ended. */
  settled: boolean;
  resolve(result: SuiteRunResult): void;
}

export class SuiteBatches {
  private readonly queue: Pending[] = [];
  private running = 0;
  private gathering: NodeJS.Timeout | undefined;
  /** Shared vitest runs started so far. */
  started = 0;

  constructor(private readonly settings: BatchSettings) {}

  /** Runs one certification's suites in the next shared vitest run (runSuites' contract). */
  readonly run = (options: SuiteRunOptions): Promise<SuiteRunResult> => {
    const files = suiteFilesNaming(suiteFiles(options.interfaces), options.ids);
    if (files.length === 0 || options.ids.length === 0) return Promise.resolve({ outcomes: [], errors: [], stopped: false });
    return new Promise((resolve) => {
      const pending: Pending = { options, files, collector: new OutcomeCollector(options.listener), settled: false, resolve };
      this.queue.push(pending);
      // A stop ends this certification alone, with the tests that ended before it; the others of its batch go on.
      void options.stop?.then(() => {
        const queued = this.queue.indexOf(pending);
        if (queued !== -1) this.queue.splice(queued, 1);
        settle(pending, { outcomes: [...pending.collector.outcomes], errors: [], stopped: true });
      });
      this.schedule();
    });
  };

  private schedule(): void {
    if (this.running >= this.settings.lanes || this.queue.length === 0) return;
    if (this.queue.length >= this.settings.size) {
      clearTimeout(this.gathering);
      this.gathering = undefined;
      this.start();
    } else {
      this.gathering ??= setTimeout(() => {
        this.gathering = undefined;
        this.start();
      }, this.settings.gatherMs);
    }
  }

  private start(): void {
    while (this.running < this.settings.lanes && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.settings.size);
      this.running += 1;
      this.started += 1;
      void runBatch(batch, this.settings.workers).finally(() => {
        this.running -= 1;
        this.schedule();
      });
    }
  }
}

function settle(pending: Pending, result: SuiteRunResult): void {
  if (pending.settled) return;
  pending.settled = true;
  pending.resolve(result);
}

async function runBatch(batch: Pending[], workers: number): Promise<void> {
  // A run's key is its place in the batch, not its run id: vitest keeps transformed modules on
  // disk by id (run-suites.ts), so the ids of the suite files stay the same from batch to batch.
  const byKey = new Map(batch.map((p, i) => [String(i), p]));
  const shared: string[] = [];
  const failed = (error: unknown) => shared.push(redactor.text(`the shared suite run failed: ${error instanceof Error ? error.message : String(error)}`));
  let vitest: Vitest | undefined;
  try {
    const contexts = Object.fromEntries([...byKey].map(([key, p]) => [key, p.options.context]));
    vitest = await withoutVitestSignals(() => suiteVitest({ contexts }, Math.max(1, Math.min(workers, batch.reduce((n, p) => n + p.files.length, 0))), [new RoutingReporter(byKey, shared)]));
    const project = vitest.getRootProject();
    const specs = [...byKey].flatMap(([key, p]) => {
      const testNamePattern = new RegExp(titlePattern(p.options.ids));
      return p.files.map((file) => project.createSpecification(fileOfRun(file, key), { testNamePattern }));
    });
    // Once every certification of the batch has stopped, the run is cut short.
    const allStopped = Promise.all(batch.map((p) => p.options.stop ?? new Promise(() => undefined)));
    await runToEnd(vitest, vitest.runTestSpecifications(specs), allStopped, () => batch.every((p) => p.settled));
  } catch (error) {
    failed(error);
    await vitest?.close().catch(() => undefined);
  }
  for (const p of batch) settle(p, { outcomes: p.collector.outcomes, errors: [...p.collector.errors, ...shared], stopped: false });
}

/** Hands each test's result to the certification its file belongs to; a batch-wide error goes to all. */
class RoutingReporter implements Reporter {
  constructor(
    private readonly byKey: Map<string, Pending>,
    private readonly shared: string[],
  ) {}

  private of(module: TestModule): Pending | undefined {
    const pending = this.byKey.get(splitRunKey(module.moduleId).key ?? '');
    return pending && !pending.settled ? pending : undefined;
  }

  onTestCaseResult(testCase: TestCase): void {
    this.of(testCase.module)?.collector.onTestCaseResult(testCase);
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.of(testModule)?.collector.onTestModuleEnd(testModule);
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): void {
    // An error outside any test cannot be told apart: every certification of the batch reports it.
    for (const error of unhandled) this.shared.push(redactor.text(`unhandled error: ${error.message}`));
  }
}
