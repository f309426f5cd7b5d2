// Runs the conformance suites of the selected interfaces with vitest, in worker processes that
// receive the run context through vitest's provide/inject.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';
import type { RunContext } from '../conformance/run-context.ts';
import type { InterfaceName } from '../profile.ts';
import type { TestOutcome } from '../report/compliance.ts';
import { OutcomeCollector, type RunListener } from './outcome-collector.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function suiteFiles(interfaces: InterfaceName[]): string[] {
  return interfaces.flatMap((iface) => {
    const dir = join(ROOT, 'suites', iface);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.suite.ts'))
      .sort()
      .map((f) => join(dir, f));
  });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface SuiteRunOptions {
  context: RunContext;
  interfaces: InterfaceName[];
  /** Only tests naming one of these ids run. */
  ids: string[];
  workers: number;
  listener?: RunListener;
  /** Extra vitest reporters (Allure). */
  reporters?: unknown[];
  setupFiles?: string[];
}

export interface SuiteRunResult {
  outcomes: TestOutcome[];
  errors: string[];
}

export async function runSuites(options: SuiteRunOptions): Promise<SuiteRunResult> {
  const files = suiteFiles(options.interfaces);
  if (files.length === 0 || options.ids.length === 0) return { outcomes: [], errors: [] };
  const collector = new OutcomeCollector(options.listener);
  // Test titles start with the ids they cover, separated by spaces.
  const pattern = `(?:^|\\s)(?:${options.ids.map(escape).join('|')})(?:\\s|$)`;
  const vitest = await createVitest(
    'test',
    {
      config: false,
      root: ROOT,
      watch: false,
      reporters: [collector, ...((options.reporters ?? []) as never[])],
      testNamePattern: pattern,
      passWithNoTests: true,
      pool: 'forks',
      maxWorkers: options.workers,
      fileParallelism: options.workers > 1,
      include: ['suites/**/*.suite.ts'],
      provide: { apcRun: options.context },
      setupFiles: options.setupFiles ?? [],
      // Each test sets its own deadline from the profile (see harness/conformance/requirement.ts).
      testTimeout: 0,
      hookTimeout: 0,
      teardownTimeout: 10_000,
      silent: true,
      allowOnly: false,
      sequence: { shuffle: false },
    },
    {},
    {},
  );
  try {
    await vitest.start(files);
  } finally {
    await vitest.close();
  }
  return { outcomes: collector.outcomes, errors: collector.errors };
}
