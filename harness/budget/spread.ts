// Spreading the tests that lease one pooled deployment over several of its kind. Under a budget the
// tests on a pooled deployment hold it one at a time (leases.ts), so where a platform refuses a
// revision-creating PATCH while a revision builds, their revision waits add up: twenty builds in a
// row on one internal_container deployment, against a few per file without a budget. More pooled
// deployments of the same kind ("copies") each take a share of those tests, handed out longest
// first over the waits the tests declare (LPT), so each copy's chain stays short. A copy costs what
// its kind's first create costs (a deployment and its first revision), so copies come only out of
// the room the budget leaves once the tests are chosen, and no more of them than bring the longest
// chain within `goal` (the waits the files take anyway). The plan (harness/run/cost.ts) and the run
// (harness/run/execute.ts, run context `poolCopies`, read by leases.ts) compute it with this one
// function from the same tests, so the run leases the copies the plan counted.
//
// A shared value that is not a deployment (the revisions-listing history: two PATCHes of a pooled
// deployment, made once and read by the tests after) lives on one deployment: the tests that share
// it stay on one copy, and its waits count once in that copy's chain, not once per test.
import { addCreated, type Created } from '../conformance/created.ts';
import type { TestCost } from '../conformance/requirement.ts';
import type { Budget } from '../profile/profile.ts';

/** A test as the spread sees it: its title (the run's name for it) and its declared cost. */
export interface SpreadTest {
  title: string;
  cost: TestCost;
}

/** A test's revision waits in a row for the target's busyPatch answer (waitsOf). */
export type Waits = (cost: Pick<TestCost, 'creates' | 'waits'>) => number;

/** A leased deployment and the tests it serves one at a time, with their waits one after another. */
export interface Chain {
  key: string;
  tests: number;
  waits: number;
}

export interface Spread {
  /** Per test title, the copy leased for a declared key, where it is not the key itself. */
  copies: Record<string, Record<string, string>>;
  /** What the copies add to the run's creates. */
  adds: Created;
  /** The room ran out before the chains came within the goal: what more the spread needs, and the longest chain it would then leave. */
  short?: { deployments: number; revisions: number; waits: number };
}

/** The name of copy `index` (0: the key itself) of pooled key `key`. */
export const copyKey = (key: string, index: number): string => (index === 0 ? key : `${key}/${index + 1}`);

/** Whether a shared key is a deployment (its first holder creates one), not a value made on one. */
const isDeployment = (cost: TestCost, key: string): boolean => (cost.shared?.[key]?.deployments ?? 0) > 0;

/** The shared values (not deployments) a test declares. */
const valuesOf = (cost: TestCost): string[] => Object.keys(cost.shared ?? {}).filter((key) => !isDeployment(cost, key));

/** The waits of making shared value `key` (its declared creates): counted once per chain. */
const valueWaits = (test: SpreadTest, key: string, waits: Waits): number => waits({ creates: test.cost.shared![key]! });

/** A test's own part of a chain: its waits, less those of making the shared values it declares (the chain counts them once). */
const ownWaits = (test: SpreadTest, waits: Waits): number =>
  Math.max(0, waits(test.cost) - valuesOf(test.cost).reduce((sum, key) => sum + valueWaits(test, key, waits), 0));

/** The chain of the tests leasing one deployment: their own waits, and each shared value's once. */
function chainWaits(tests: readonly SpreadTest[], waits: Waits): number {
  const values = new Map<string, number>();
  for (const test of tests) for (const key of valuesOf(test.cost)) values.set(key, valueWaits(test, key, waits));
  return tests.reduce((sum, test) => sum + ownWaits(test, waits), 0) + [...values.values()].reduce((a, b) => a + b, 0);
}

/** The deployment a test leases for declared key `key`, as `copies` assign it. */
export const leasedKey = (copies: Spread['copies'], title: string, key: string): string => copies[title]?.[key] ?? key;

/** What the copies `copies` assign cost: each copy its kind's first create (a report's plan adds it, as the plan did). */
export function copiesCost(tests: readonly SpreadTest[], copies: Spread['copies']): Created {
  const once = new Map<string, Created>();
  for (const test of tests)
    for (const [key, copy] of Object.entries(copies[test.title] ?? {})) if (test.cost.shared?.[key]) once.set(copy, test.cost.shared[key]);
  return [...once.values()].reduce<Created>((sum, cost) => addCreated(sum, cost), {});
}

/** Every leased deployment's chain under `copies` (none assigned: each key one deployment). */
export function chainsOf(tests: readonly SpreadTest[], waits: Waits, copies: Spread['copies'] = {}): Chain[] {
  const onKey = new Map<string, SpreadTest[]>();
  for (const test of tests) {
    for (const key of Object.keys(test.cost.shared ?? {}).filter((k) => isDeployment(test.cost, k))) {
      const leased = leasedKey(copies, test.title, key);
      onKey.set(leased, [...(onKey.get(leased) ?? []), test]);
    }
  }
  return [...onKey].map(([key, on]) => ({ key, tests: on.length, waits: chainWaits(on, waits) }));
}

/** The tests of one deployment key that go to the same copy: those sharing a value made on it. */
interface Unit {
  tests: SpreadTest[];
  waits: number;
}

function unitsOf(tests: readonly SpreadTest[], key: string, waits: Waits): Unit[] {
  const units: SpreadTest[][] = [];
  for (const test of tests.filter((t) => isDeployment(t.cost, key))) {
    const values = new Set(valuesOf(test.cost));
    const joined = units.filter((unit) => unit.some((other) => valuesOf(other.cost).some((v) => values.has(v))));
    const merged = [...joined.flat(), test];
    units.splice(0, units.length, ...units.filter((unit) => !joined.includes(unit)), merged);
  }
  // Longest first; equal waits keep the tests' order, so the plan and the run assign alike.
  return units.map((unit) => ({ tests: unit, waits: chainWaits(unit, waits) })).sort((a, b) => b.waits - a.waits);
}

/** Longest-processing-time-first: each unit to the copy with the shortest chain so far. */
function assign(units: readonly Unit[], copies: number): { loads: number[]; copyOf: Map<Unit, number> } {
  const loads = new Array<number>(copies).fill(0);
  const copyOf = new Map<Unit, number>();
  for (const unit of units) {
    const index = loads.indexOf(Math.min(...loads));
    loads[index] = loads[index]! + unit.waits;
    copyOf.set(unit, index);
  }
  return { loads, copyOf };
}

interface Pool {
  key: string;
  once: Created;
  units: Unit[];
  copies: number;
}

const longestOf = (pool: Pool, copies = pool.copies): number => Math.max(0, ...assign(pool.units, copies).loads);

/** Adds copies, to the pool with the longest chain first, while that chain passes `goal`, a copy shortens it and `fits` the copy's cost. */
function grow(pools: Pool[], goal: number, fits: (adds: Created) => boolean): Created {
  const adds: Created = {};
  for (;;) {
    const [worst] = [...pools].sort((a, b) => longestOf(b) - longestOf(a));
    if (!worst || longestOf(worst) <= goal || longestOf(worst, worst.copies + 1) >= longestOf(worst)) return adds;
    const more = addCreated({ ...adds }, worst.once);
    if (!fits(more)) return adds;
    Object.assign(adds, more);
    worst.copies += 1;
  }
}

const within = (room: Budget) => (adds: Created) =>
  (adds.deployments ?? 0) <= (room.deployments ?? Infinity) && (adds.revisions ?? 0) <= (room.revisions ?? Infinity);

/**
 * The copies of the pooled deployments: for `tests` (the run's, after the budget's selection),
 * within `room` (what the budget leaves once they are counted), until no chain passes `goal`
 * revision waits. Where the room runs out first, `short` says what more it needs.
 */
export function spreadPools(tests: readonly SpreadTest[], waits: Waits, goal: number, room: Budget): Spread {
  const poolsWith = (): Pool[] => {
    const keys = [...new Set(tests.flatMap((t) => Object.keys(t.cost.shared ?? {}).filter((k) => isDeployment(t.cost, k))))].sort();
    return keys.map((key) => ({ key, once: tests.find((t) => t.cost.shared?.[key])!.cost.shared![key]!, units: unitsOf(tests, key, waits), copies: 1 }));
  };
  const pools = poolsWith();
  const adds = grow(pools, goal, within(room));
  const copies: Spread['copies'] = {};
  for (const pool of pools) {
    const { copyOf } = assign(pool.units, pool.copies);
    for (const [unit, index] of copyOf) for (const test of unit.tests) if (index > 0) (copies[test.title] ??= {})[pool.key] = copyKey(pool.key, index);
  }
  const longest = Math.max(0, ...pools.map((p) => longestOf(p)));
  if (longest <= goal) return { copies, adds };
  // What an unlimited room would add, and the chain it would leave (a test's own waits may pass the goal alone).
  const unlimited = poolsWith();
  const needs = grow(unlimited, goal, () => true);
  const more = { deployments: (needs.deployments ?? 0) - (adds.deployments ?? 0), revisions: (needs.revisions ?? 0) - (adds.revisions ?? 0) };
  if (more.deployments <= 0 && more.revisions <= 0) return { copies, adds };
  return { copies, adds, short: { ...more, waits: Math.max(0, ...unlimited.map((p) => longestOf(p))) } };
}
