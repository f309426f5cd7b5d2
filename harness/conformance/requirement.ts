// `requirement(ids, body)`: declares one conformance test. The test is named for the ids it
// covers, is gated on the capabilities its requirements need, and runs as test-run.ts says: on
// failure it leaves a FailureRecord in the test's meta for the compliance reporter.
import { test } from 'vitest';
import { capabilitiesOf, loadCatalogue, missingCapabilities, type Requirement } from '../catalogue.ts';
import type { Check } from './check.ts';
import type { RunContext } from './run-context.ts';
import { runOfCollectedFile, runOfFile, suiteRunOfCollectedFile } from './run-of-file.ts';
import type { RequirementOptions, TestCost } from './test-meta.ts';
import { runTest, timeoutFor } from './test-run.ts';
import { leaseBeforeEach } from '../budget/leases.ts';

export type { RequirementOptions, RequirementTestMeta, TestCost } from './test-meta.ts';

/** The requirements by id: as the run of the file being collected has them, else read here (suites loaded outside a run). */
function requirementsById(): Map<string, Requirement> {
  try {
    return suiteRunOfCollectedFile().requirementsById;
  } catch {
    return loadCatalogue().byId;
  }
}

/** The run of the file being collected; none when the suites are loaded outside a run. */
function collectedRun(): RunContext | undefined {
  try {
    return runOfCollectedFile();
  } catch {
    return undefined;
  }
}

function entriesOf(ids: string[], known: Map<string, Requirement>): Requirement[] {
  return ids.map((id) => {
    const entry = known.get(id);
    if (!entry) throw new Error(`Unknown requirement id ${id}: add it to requirements/ or fix the suite.`);
    return entry;
  });
}

/** What the test may create on this target: nothing when the profile cannot run it. */
function costOf(run: RunContext | undefined, entries: Requirement[], declared: RequirementOptions['cost']): TestCost {
  const applicable = run ? entries.every((e) => missingCapabilities(e, capabilitiesOf(run.profile)).length === 0) : false;
  const cost = typeof declared === 'function' ? (run ? declared(run.profile) : undefined) : declared;
  return applicable && cost ? cost : { creates: {} };
}

export function requirement(ids: string | string[], body: (t: Check) => Promise<void>, options: RequirementOptions = {}): void {
  const list = Array.isArray(ids) ? ids : [ids];
  const run = collectedRun();
  const entries = entriesOf(list, requirementsById());
  const title = `${list.join(' ')} ${options.title ?? entries[0]!.statement}`;
  const cost = costOf(run, entries, options.cost);
  // Tests that create deployments or share pooled ones run side by side within their file: each
  // may wait for revisions (minutes on a real platform), and those waits overlap instead of adding
  // up. Tests on one pooled deployment still run one at a time: each leases it (harness/budget/leases.ts).
  const concurrent = cost.shared !== undefined || (cost.creates.deployments ?? 0) > 0;
  if (run) leaseBeforeEach(runOfFile);
  const timeout = run ? timeoutFor(run, options.timeout, cost, suiteRunOfCollectedFile().serialRequestMs(title)) : 60_000;
  test(title, { timeout, meta: { cost }, concurrent }, (ctx) => runTest(ctx, { ids: list, entries, title, cost, timeout: options.timeout, body }));
}
