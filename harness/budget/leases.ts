// A test's leases on what the run shares (lease-table.ts). Under a budget a test declares in its
// cost what it shares (`shared`, by key); before it starts, it leases every one of those keys from
// the certifying process (run context `poolUrl`, broker.ts), in one order for all
// tests, so two tests never wait for each other's keys. The wait comes before the test's own
// deadline starts (a `beforeEach`: hooks have none), since another test on the same deployment may
// wait minutes for its revisions. When the test ends its leases go back, with the values it made;
// a test that failed drops the values it used (it may have left them changed). Suites never see a
// lease: they ask their Check's needs (needs.ts), which hold the test's leases.
import { beforeEach, type TestContext } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import { budgeted } from '../profile/profile.ts';
import { NotJudged } from '../conformance/failure.ts';
import type { RunContext } from '../conformance/run-context.ts';
import { LeaseTable, type Granted, type Release } from './lease-table.ts';
import { postToBroker } from './loopback.ts';
import { leasedKey } from './spread.ts';

/** One key as a test holds it. */
export interface Lease<T = unknown> {
  readonly key: string;
  /** What the key's first holder made (absent: nothing yet, this test makes it and sets it). */
  value: T | undefined;
  /** The test may leave the value changed beyond use: a failed test drops it (default). A record of what happened keeps. */
  dropWhenFailed: boolean;
}

interface Held extends Lease {
  token: string;
  used: boolean;
}

/** A test's leases, taken before it started. */
export interface Leases {
  held: Map<string, Held>;
  /** Why leasing failed (the run's service did not answer): the test says so instead of judging. */
  problem?: string;
}

/** Where leases come from: the certifying process's table, or (a run without one) this worker's. */
interface Lender {
  /** `group`: the test's suite file, whose other tests waiting for the key come first (lease-table.ts). */
  lease(key: string, group?: string): Promise<Granted>;
  release(token: string, release: Release): Promise<void>;
}

/** A request to the run's broker, whose errors name this service. */
const post = (url: string, body: unknown) => postToBroker(url, body, "the run's pool");

const remote = (url: string): Lender => ({
  lease: async (key, group) => (await post(`${url}/lease`, { key, group })) as unknown as Granted,
  release: async (token, release) => void (await post(`${url}/release`, { token, ...release })),
});

function local(): Lender {
  const table = new LeaseTable();
  return { lease: (key, group) => table.lease(key, undefined, group), release: async (token, release) => void table.release(token, release) };
}

/** One run's leases in this worker: its own table (a run without the certifying process's), those taken for tests not yet started, the files hooked. */
class RunLeases {
  readonly local = local();
  /** Leases taken before a test started, by test id, until the test picks them up. */
  readonly waiting = new Map<string, Leases>();
  /** Suite files whose tests lease before they start (the hook is registered once a file). */
  readonly hooked = new WeakSet<object>();
}

/** Each run's leases in this worker, by run id (a worker may run several runs' files: run-of-file.ts). */
const runs = new Map<string, RunLeases>();
function leasesOfRun(run: RunContext): RunLeases {
  let own = runs.get(run.runId);
  if (!own) runs.set(run.runId, (own = new RunLeases()));
  return own;
}

const lenderOf = (run: RunContext): Lender => (run.poolUrl ? remote(run.poolUrl) : leasesOfRun(run).local);

/** The keys `context`'s test shares, when it runs under a budget and the budget left it in. */
function keysOf(run: RunContext, context: TestContext): string[] {
  const task = context.task;
  if (!budgeted(run.profile) || run.overBudget?.includes(task.name)) return [];
  return Object.keys(task.meta.cost?.shared ?? {});
}

/** Called as a test is declared: the file's tests lease their shared keys before they start (registered once a file). */
export function leaseBeforeEach(run: (file: string) => RunContext): void {
  // The collector of a file's top level is one object reused for every file a worker collects; its file is the file's own.
  const file = getCurrentSuite().file;
  const own = leasesOfRun(run(file.filepath));
  if (own.hooked.has(file)) return;
  own.hooked.add(file);
  beforeEach(async (context) => {
    const ctx = run(context.task.file.filepath);
    const keys = keysOf(ctx, context);
    if (keys.length === 0) return;
    const leases = await leaseKeys(ctx, context.task.id, keys, context.task.file.filepath, (key) => leasedKey(ctx.poolCopies ?? {}, context.task.name, key));
    // A test that times out does not reach its own end: its leases go back when vitest ends it.
    context.onTestFinished(() => releaseLeases(ctx, leases, context.task.result?.state === 'fail'));
  });
}

/**
 * Leases `keys` for test `testId`, which picks them up as it starts (takeLeases). A key is leased
 * as the copy of its pooled deployment the run assigned the test (`leasedAs`, spread.ts), in the
 * order of those names: one order for all tests, so no two wait for each other's.
 */
export async function leaseKeys(
  run: RunContext,
  testId: string,
  keys: readonly string[],
  group?: string,
  leasedAs: (key: string) => string = (key) => key,
): Promise<Leases> {
  const leases: Leases = { held: new Map() };
  const own = leasesOfRun(run);
  own.waiting.set(testId, leases);
  try {
    for (const key of [...keys].sort((a, b) => (leasedAs(a) < leasedAs(b) ? -1 : leasedAs(a) > leasedAs(b) ? 1 : 0))) {
      const granted = await lenderOf(run).lease(leasedAs(key), group);
      leases.held.set(key, { key, token: granted.token, value: granted.value, dropWhenFailed: true, used: false });
    }
  } catch (error) {
    leases.problem = `the run's pool of shared deployments did not lend ${keys.join(', ')}: ${error instanceof Error ? error.message : String(error)}`;
  }
  return leases;
}

/** The leases taken for test `testId` (none: it shares nothing); a test whose leases could not be taken is not judged. */
export function takeLeases(run: RunContext, testId: string): Leases {
  const own = leasesOfRun(run);
  const leases = own.waiting.get(testId);
  own.waiting.delete(testId);
  if (leases?.problem) throw new NotJudged('skipped', leases.problem);
  return leases ?? { held: new Map() };
}

/** Gives back every lease of `leases` (once: a second call finds none); `failed` drops what the test used. */
export async function releaseLeases(run: RunContext, leases: Leases, failed: boolean): Promise<void> {
  const held = [...leases.held.values()];
  leases.held.clear();
  await Promise.all(
    held.map((lease) => {
      const drop = failed && lease.used && lease.dropWhenFailed;
      return lenderOf(run).release(lease.token, drop ? { drop } : lease.value !== undefined ? { value: lease.value } : {});
    }),
  );
}

/**
 * The test's lease on `key`. The test declared the key in its cost (`shared`), so it holds it: a
 * key it did not declare is a suite's mistake, which the plan would not count either.
 */
export function leaseOf<T>(leases: Leases, key: string): Lease<T> {
  const lease = leases.held.get(key);
  if (!lease) throw new Error(`Shared key ${key} is not in this test's declared cost (shared): declare it, so the test holds it and the plan counts it.`);
  lease.used = true;
  return lease as Lease<T>;
}
