// apc selftest certifies a couple of hundred subjects, each with its own reference, run id and
// report. When each certification started a vitest and a suite worker of its own, that worker's
// start (node, vitest's runtime, the harness, the suites, fast-check and undici loaded again) was
// a quarter of a subject's CPU. Here the suites of several certifications run in one vitest run
// whose workers load all that once: each certification's files are given as
// `<file>?apc-run=<its place in the batch>` (harness/conformance/run-key.ts), its tests read its own context
// (run-of-file.ts), and what they report goes to it alone. Everything else of a certification
// stays its own: plan, target, limiter, pool, deadline, verdict and report.
//
// Each lane keeps its vitest instance from batch to batch and hands it each batch's contexts
// before the run; the suite worker processes are kept from run to run too (kept-workers.ts: vitest
// 4.1 ends its own fork workers with each run), so a worker loads its modules once per selftest,
// not once per batch.
//
// Both keep the SuiteRunner contract (suite-runner.ts); oneOffRunner is the plain one.
import type { Vitest } from 'vitest/node';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { SerializedError } from 'vitest';
import { fileOfRun, splitRunKey } from '../conformance/run-key.ts';
import { KeptWorkers } from './kept-workers.ts';
import { OutcomeCollector } from './outcome-collector.ts';
import { runFiles, titlePattern } from './suite-files.ts';
import type { SuiteRunner, SuiteRunOptions, SuiteRunResult } from './suite-runner.ts';
import { runToEnd, suiteVitest, withoutVitestSignals } from './suite-vitest.ts';

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

/** A lane's vitest instance, and the reporter that routes its current batch's results. */
interface Lane {
  vitest: Vitest;
  reporter: RoutingReporter;
}

export class SuiteBatches implements SuiteRunner {
  private readonly queue: Pending[] = [];
  private running = 0;
  private gathering: NodeJS.Timeout | undefined;
  /** The instances of the lanes between batches. */
  private readonly idle: Lane[] = [];
  private closed = false;
  /** The suite worker processes, shared by the lanes. */
  readonly workers = new KeptWorkers();
  /** Shared vitest runs started so far. */
  started = 0;
  /** Vitest instances created so far: one per lane, and a new one after a run cut short or failed. */
  instances = 0;

  constructor(private readonly settings: BatchSettings) {}

  /** Each certification in a vitest run of its own on one worker, `lanes` at a time, the lanes' instances and workers kept from run to run. */
  static alone(lanes: number): SuiteBatches {
    return new SuiteBatches({ lanes, workers: 1, size: 1, gatherMs: 0 });
  }

  /** Runs one certification's suites in the next shared vitest run. */
  readonly run = (options: SuiteRunOptions): Promise<SuiteRunResult> => {
    const files = runFiles(options.interfaces, options.ids);
    if (files.length === 0 || options.ids.length === 0) return Promise.resolve({ outcomes: [], errors: [], stopped: false });
    return new Promise((resolve) => {
      const pending: Pending = { options, files, collector: new OutcomeCollector(options.redactor, options.listener), settled: false, resolve };
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
      void this.runBatch(batch).finally(() => {
        this.running -= 1;
        this.schedule();
      });
    }
  }

  /** Closes the instances and ends the worker processes kept for later batches: apc selftest ends (or was interrupted). A batch still running closes its own. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((lane) => lane.vitest.close()));
    await this.workers.close();
  }

  private async lane(): Promise<Lane> {
    const kept = this.idle.pop();
    if (kept) return kept;
    const reporter = new RoutingReporter();
    const vitest = await withoutVitestSignals(() => suiteVitest({ contexts: {} }, this.settings.workers, [reporter], this.workers.pool));
    this.instances += 1;
    return { vitest, reporter };
  }

  private async runBatch(batch: Pending[]): Promise<void> {
    // A run's key is its place in the batch, not its run id: vitest keeps transformed modules on
    // disk and in its module graph by id (suite-vitest.ts), so the ids of the suite files stay the
    // same from batch to batch. A file id that ran in an earlier batch runs again: vitest
    // re-executes every test file it is given, with the contexts provided for this run.
    const byKey = new Map(batch.map((p, i) => [String(i), p]));
    const shared: string[] = [];
    const failed = (error: unknown) => shared.push(`the shared suite run failed: ${error instanceof Error ? error.message : String(error)}`);
    let lane: Lane | undefined;
    try {
      lane = await this.lane();
      lane.reporter.route(byKey, shared);
      lane.vitest.provide('apcRuns', Object.fromEntries([...byKey].map(([key, p]) => [key, p.options.context])));
      const project = lane.vitest.getRootProject();
      const specs = [...byKey].flatMap(([key, p]) => {
        const testNamePattern = new RegExp(titlePattern(p.options.ids));
        return p.files.map((file) => project.createSpecification(fileOfRun(file, key), { testNamePattern }));
      });
      // Once every certification of the batch has stopped, the run is cut short (and its instance closed).
      const allStopped = Promise.all(batch.map((p) => p.options.stop ?? new Promise(() => undefined)));
      const open = await runToEnd(lane.vitest, lane.vitest.runTestSpecifications(specs), allStopped, () => batch.every((p) => p.settled), !this.closed);
      // Back among the idle before its certifications settle, so that close() finds it.
      if (open && !this.closed) this.idle.push(lane);
      else if (open) await lane.vitest.close();
    } catch (error) {
      failed(error);
      await lane?.vitest.close().catch(() => undefined);
    }
    // An error of the shared run goes to every certification of the batch: through each one's redactor, so none shows another's secret.
    const sharedErrors = shared.map((text) => batch.reduce((redacted, p) => p.options.redactor.text(redacted), text));
    for (const p of batch) settle(p, { outcomes: p.collector.outcomes, errors: [...p.collector.errors, ...sharedErrors], stopped: false });
  }
}

function settle(pending: Pending, result: SuiteRunResult): void {
  if (pending.settled) return;
  pending.settled = true;
  pending.resolve(result);
}

/** Hands each test's result to the certification its file belongs to; a batch-wide error goes to all. */
class RoutingReporter implements Reporter {
  private byKey = new Map<string, Pending>();
  private shared: string[] = [];

  /** The batch whose run comes next: its lane runs one at a time. */
  route(byKey: Map<string, Pending>, shared: string[]): void {
    this.byKey = byKey;
    this.shared = shared;
  }

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
    for (const error of unhandled) this.shared.push(`unhandled error: ${error.message}`);
  }
}
