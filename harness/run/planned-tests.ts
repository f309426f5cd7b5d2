// The tests a budgeted run (or `--plan`) plans with: collected from the suite files without
// running them, each with its declared cost. Collecting takes a vitest instance of its own: a
// worker that loads vitest, the harness and every suite, about 1.5 s before the run's own suite
// workers start, on every budgeted run. What the collection returns follows from the sources (the
// suites, what they import, the catalogue), the profile and the selection alone, so it is kept in
// node_modules/.cache/apc-plan/, named by the hash of all of them: an edited source or another
// profile collects again. The profile enters the hash without its keys, its workspace ids, its
// seed and the URLs' ports (a target started again plans alike); nothing of the profile is
// written. Where the install is read-only, every run collects.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../root.ts';
import { redactedProfile, type InterfaceName, type TargetProfile } from '../profile/profile.ts';
import type { TestCase } from 'vitest/node';
import type { TestCost } from '../conformance/requirement.ts';
import type { RunContext } from '../conformance/run-context.ts';
import { suiteFiles, suiteFilesNaming } from '../suite-runner/suite-files.ts';
import { suiteVitest, withoutVitestSignals } from '../suite-runner/suite-vitest.ts';

/** A test of the selection and what it may cost. */
export interface PlannedTest {
  title: string;
  /** The suite file: its tests' waits overlap, files run one after another on each worker. */
  file: string;
  requirements: string[];
  cost: TestCost;
}

export const PLAN_CACHE = join(ROOT, 'node_modules', '.cache', 'apc-plan');
/** What a collection may read: the suites and everything they import, and the catalogue. */
const SOURCES = ['suites', 'generators', 'harness', 'schemas', 'requirements'];
/** Entries kept at most: one per profile and selection a machine certifies with. */
const KEEP = 64;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

/** The hash of every source a collection may read: hashed once a process, as the sources do not change under a running harness. */
let sources: string | undefined;
function sourcesHash(): string {
  if (sources) return sources;
  const hash = createHash('sha256');
  for (const file of SOURCES.flatMap((dir) => filesUnder(join(ROOT, dir))))
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  return (sources = hash.digest('hex'));
}

/** Whether a value is given, not which: a workspace id or a key decides what applies, not its value. */
const given = (value: string | undefined): string | undefined => (value === undefined ? undefined : 'given');

/**
 * The profile as far as a test's cost may read it: keys and workspace ids as markers, URLs without
 * their ports, no seed (a run without --seed draws one; costs are declared, never drawn).
 */
function planningProfile(profile: TargetProfile): unknown {
  const { seed: _seed, ...redacted } = redactedProfile(profile);
  const urls = Object.fromEntries(Object.entries(profile.urls).map(([name, url]) => [name, url?.replace(/:\d+(?=\/|$)/, ':*')]));
  const otherTenant = redacted.otherTenant && { ...redacted.otherTenant, tenantId: given(redacted.otherTenant.tenantId) };
  return { ...redacted, urls, tenantId: given(profile.tenantId), foreignTenantId: given(profile.foreignTenantId), otherTenant };
}

function entryName(profile: TargetProfile, interfaces: InterfaceName[], ids: string[]): string {
  const key = JSON.stringify({ format: 1, profile: planningProfile(profile), interfaces, ids });
  return `${sourcesHash().slice(0, 16)}-${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`;
}

function keep(entry: string, tests: PlannedTest[]): void {
  try {
    mkdirSync(PLAN_CACHE, { recursive: true });
    const staging = join(PLAN_CACHE, `.${entry}.${process.pid}`);
    writeFileSync(staging, JSON.stringify(tests));
    renameSync(staging, join(PLAN_CACHE, entry));
    // Entries of other sources go; of the rest, the newest KEEP stay.
    const prefix = entry.slice(0, 17);
    const entries = readdirSync(PLAN_CACHE).filter((name) => !name.startsWith('.'));
    for (const old of entries.filter((name) => !name.startsWith(prefix))) rmSync(join(PLAN_CACHE, old), { force: true });
    const mine = entries.filter((name) => name.startsWith(prefix)).map((name) => ({ name, at: statSync(join(PLAN_CACHE, name)).mtimeMs }));
    for (const { name } of mine.sort((a, b) => b.at - a.at).slice(KEEP)) rmSync(join(PLAN_CACHE, name), { force: true });
  } catch {
    // A read-only install (or a race with another run's pruning): the next run collects again.
  }
}

/** The planned tests of `profile`'s run of `ids`: kept from an earlier run of the same sources, profile and selection, else `collect()`ed and kept. */
export async function cachedPlannedTests(
  profile: TargetProfile,
  interfaces: InterfaceName[],
  ids: string[],
  collect: () => Promise<PlannedTest[]>,
): Promise<PlannedTest[]> {
  const entry = entryName(profile, interfaces, ids);
  try {
    return JSON.parse(readFileSync(join(PLAN_CACHE, entry), 'utf8')) as PlannedTest[];
  } catch {
    // Not collected yet with these sources, this profile and this selection.
  }
  const tests = await collect();
  keep(entry, tests);
  return tests;
}

/** The selected tests with their declared costs, collected from the suite files without running them (or kept from a run that did: planned-tests-cache.ts). */
export async function plannedTests(context: RunContext, interfaces: InterfaceName[], ids: string[]): Promise<PlannedTest[]> {
  const files = suiteFilesNaming(suiteFiles(interfaces), ids);
  if (files.length === 0 || ids.length === 0) return [];
  return cachedPlannedTests(context.profile, interfaces, ids, () => collectedTests(context, files, ids));
}

async function collectedTests(context: RunContext, files: string[], ids: string[]): Promise<PlannedTest[]> {
  const vitest = await withoutVitestSignals(() => suiteVitest({ context, ids }, 1, []));
  try {
    const { testModules } = await vitest.collect(files);
    const wanted = new Set(ids);
    const tests: PlannedTest[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests() as Iterable<TestCase>) {
        const requirements = test.name.split(' ').filter((word) => /^[A-Z]+(-[A-Z]+)+-\d+$/.test(word));
        if (!requirements.some((id) => wanted.has(id))) continue;
        tests.push({ title: test.name, file: module.relativeModuleId, requirements, cost: test.meta().cost ?? { creates: {} } });
      }
    }
    return tests;
  } finally {
    await vitest.close();
  }
}
