// Spreading the tests that lease one pooled deployment over copies of its kind (harness/budget/spread.ts):
// longest waits first, only out of the budget's room, no more copies than bring the chains within
// the goal; tests sharing a value made on the deployment stay on one copy, whose chain counts that
// value's waits once; a budget too small says what more it needs. A test leasing a copy waits only
// for the tests on that copy (leases.ts).
import { describe, expect, test } from 'vitest';
import { chainsOf, copyKey, spreadPools, type SpreadTest } from '../../harness/budget/spread.ts';
import { leaseKeys, releaseLeases } from '../../harness/budget/leases.ts';
import { waitsOf } from '../../harness/conformance/waits.ts';
import { brokeredRun } from '../support/brokered-run.ts';

const ONCE = { deployments: 1, revisions: 1 };
const refused = (cost: Parameters<typeof waitsOf>[0]) => waitsOf(cost, 'refused');
const onPool = (title: string, waits: number, more: Record<string, { revisions: number }> = {}): SpreadTest => ({
  title,
  cost: { creates: {}, shared: { pool: ONCE, ...more }, waits: { accepted: 0, refused: waits } },
});

describe('spreadPools', () => {
  const tests = [onPool('a', 3), onPool('b', 2), onPool('c', 2), onPool('d', 1), onPool('e', 1), onPool('f', 1)];

  test('hands the tests to copies longest first, out of the room, until no chain passes the goal', () => {
    expect(Math.max(...chainsOf(tests, refused).map((c) => c.waits))).toBe(10);
    const spread = spreadPools(tests, refused, 4, { deployments: 5, revisions: 5 });
    // 10 waits within 4 a copy: three copies (4, 3, 3), not the five the room allows.
    expect(spread.adds).toEqual({ deployments: 2, revisions: 2 });
    expect(spread.short).toBeUndefined();
    const chains = chainsOf(tests, refused, spread.copies);
    expect(chains.map((c) => c.key).sort()).toEqual(['pool', copyKey('pool', 1), copyKey('pool', 2)].sort());
    expect(Math.max(...chains.map((c) => c.waits))).toBe(4);
    expect(chains.reduce((sum, c) => sum + c.tests, 0)).toBe(tests.length);
  });

  test('a budget without room keeps one deployment and says what more the spread needs', () => {
    const none = spreadPools(tests, refused, 4, { deployments: 0, revisions: 10 });
    expect(none.copies).toEqual({});
    expect(none.adds).toEqual({});
    expect(none.short).toEqual({ deployments: 2, revisions: 2, waits: 4 });
    const one = spreadPools(tests, refused, 4, { deployments: 1, revisions: 1 });
    expect(one.adds).toEqual({ deployments: 1, revisions: 1 });
    expect(one.short).toEqual({ deployments: 1, revisions: 1, waits: 4 });
  });

  test('no copy where the chain is within the goal, or where one test alone makes it', () => {
    expect(spreadPools(tests, refused, 10, { deployments: 5 })).toEqual({ copies: {}, adds: {} });
    expect(spreadPools([onPool('alone', 6)], refused, 2, { deployments: 5 })).toEqual({ copies: {}, adds: {} });
  });

  test("tests sharing a value made on the deployment stay on one copy, and the value's waits count once", () => {
    const history = { history: { revisions: 2 } };
    const listing = [onPool('l1', 2, history), onPool('l2', 2, history), onPool('l3', 2, history)];
    const others = [onPool('p1', 2), onPool('p2', 1)];
    // The history's two waits once, not three times; the listing tests add none of their own.
    expect(chainsOf(listing, refused)).toEqual([{ key: 'pool', tests: 3, waits: 2 }]);
    const spread = spreadPools([...listing, ...others], refused, 2, { deployments: 5, revisions: 5 });
    const copyOf = (title: string) => spread.copies[title]?.pool ?? 'pool';
    expect(new Set(listing.map((t) => copyOf(t.title))).size).toBe(1);
    expect(Math.max(...chainsOf([...listing, ...others], refused, spread.copies).map((c) => c.waits))).toBe(2);
  });
});

describe('leases of copies', () => {
  const pool = brokeredRun('apc-spread');

  test('a test on another copy of the key does not wait; one on the same copy does', async () => {
    const first = await leaseKeys(pool.run, 's1', ['pool']);
    const elsewhere = await leaseKeys(pool.run, 's2', ['pool'], undefined, (key) => copyKey(key, 1));
    expect(elsewhere.held.get('pool')?.token).toMatch(/^pool\/2#/);
    let granted = false;
    const same = leaseKeys(pool.run, 's3', ['pool']).then((l) => ((granted = true), l));
    await new Promise((r) => setTimeout(r, 100));
    expect(granted).toBe(false);
    await releaseLeases(pool.run, first, false);
    await releaseLeases(pool.run, await same, false);
    await releaseLeases(pool.run, elsewhere, false);
    expect(granted).toBe(true);
  });
});
