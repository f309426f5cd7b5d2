// The vitest instance that runs (or only collects) conformance suites, as every SuiteRunner makes
// it, and how a run of it ends. The suite workers receive their run's context through vitest's
// provide/inject.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createVitest, type PoolRunnerInitializer, type Vitest } from 'vitest/node';
import type { RunContext } from '../conformance/run-context.ts';
import { ROOT } from '../root.ts';
import { titlePattern } from './suite-files.ts';
import { LongestWaitsFirst } from './suite-order.ts';
import { typeboxAlias } from './typebox-module.ts';

const MODULE_CACHE = join(ROOT, 'node_modules', '.cache', 'apc-vitest');

function writable(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The vitest instance that runs (or only collects) the suites of a run: `context` is that run's;
 * `contexts`, by run key, are those of the runs whose files one shared vitest run carries
 * (batches.ts), each file naming its run and each specification its own test-name pattern.
 * `pool` replaces vitest's fork workers (those of kept-workers.ts outlive a run).
 */
export function suiteVitest(
  options: { context: RunContext; ids: string[] } | { contexts: Record<string, RunContext> },
  workers: number,
  reporters: unknown[],
  pool?: PoolRunnerInitializer,
) {
  const single = 'context' in options;
  return createVitest(
    'test',
    {
      config: false,
      root: ROOT,
      watch: false,
      reporters: reporters as never[],
      ...(single ? { testNamePattern: titlePattern(options.ids) } : {}),
      passWithNoTests: true,
      pool: pool ?? 'forks',
      maxWorkers: workers,
      fileParallelism: workers > 1,
      // Files share a worker's modules (schemas compiled once, fast-check and undici loaded
      // once): a third of the CPU time of a full run. Suites keep no state that one file could
      // leave for another: each file reads its own run's context (run-of-file.ts), and what a run
      // keeps in a worker (its redactor, limiter, names) is its own SuiteRun (suite-run.ts).
      isolate: false,
      include: ['suites/**/*.suite.ts'],
      provide: single ? { apcRun: options.context } : { apcRuns: options.contexts },
      // Each test sets its own deadline from the profile (see harness/conformance/requirement.ts).
      testTimeout: 0,
      hookTimeout: 0,
      teardownTimeout: 10_000,
      silent: true,
      allowOnly: false,
      // The files with the longest chains of revision waits start first (suite-order.ts).
      sequence: { shuffle: false, sequencer: LongestWaitsFirst },
      // Tests marked concurrent (those that create deployments, harness/conformance/requirement.ts)
      // run this many at a time per file; requests stay within the run's limiter.
      maxConcurrency: 16,
      // Transformed suite and harness modules are kept on disk between runs (a run's start costs a
      // third less), where the install is writable: a failed cache write would fail the run.
      experimental: { fsModuleCache: writable(MODULE_CACHE), fsModuleCachePath: MODULE_CACHE },
      // TypeBox as one module rather than its 266 (typebox-module.ts).
      alias: typeboxAlias(),
    },
    {},
    {},
  );
}

/**
 * Creates a vitest instance without the signal handlers its logger adds: it would exit the process
 * on SIGINT/SIGTERM, and a run handles them itself (run-stop.ts) so that it can delete what it
 * created and write the partial report first.
 */
export async function withoutVitestSignals(create: () => Promise<Vitest>): Promise<Vitest> {
  const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  const vitest = await create();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) if (!before[signal].includes(listener)) process.off(signal, listener);
  }
  return vitest;
}

/**
 * Waits for `running` or `stop`, then closes vitest, unless `keepOpen` and the run ended by
 * itself (a lane of apc selftest keeps its instance for the next batch, batches.ts).
 * `cut()` says whether the run is to be cut short. Returns whether vitest is still open.
 */
export async function runToEnd(
  vitest: Vitest,
  running: Promise<unknown>,
  stop: Promise<unknown> | undefined,
  cut: () => boolean,
  keepOpen = false,
): Promise<boolean> {
  let ended = false;
  try {
    await Promise.race([running, ...(stop ? [stop] : [])]);
    ended = !cut();
  } finally {
    // After a stop, the cancel asks the workers to end, and the pool's second cancel (in close)
    // forces them: a test waiting on a hanging target is cut short, not awaited.
    if (cut()) void vitest.cancelCurrentRun('keyboard-input');
    if (!(keepOpen && ended)) await vitest.close();
    // The cut-short run settles now, so nothing of it (such as vitest setting process.exitCode) comes after the report.
    await running.catch(() => undefined);
  }
  return keepOpen && ended;
}
