// The paging property draws the edges of `limit` as well as the middle (issue: boundaries never sent).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LARGEST_LIMIT, limitEdges, pageLimits } from '../../../generators/agent-server/search-limits.ts';

describe('search limits', () => {
  test('the edges are 1, the set, one more than the set and the largest limit', () => {
    expect(limitEdges(5)).toEqual([1, 5, 6, LARGEST_LIMIT]);
    expect(LARGEST_LIMIT).toBe(10);
  });

  test('a property of 25 runs (the default) draws every edge', () => {
    // Over many seeds: each edge shows up in a run of 25 for nearly every seed, and always across a few.
    const seen = new Set<number>();
    for (let seed = 1; seed <= 5; seed += 1) for (const limit of fc.sample(pageLimits(5), { numRuns: 25, seed })) seen.add(limit);
    for (const edge of limitEdges(5)) expect(seen).toContain(edge);
    expect([...seen].every((l) => l >= 1 && l <= LARGEST_LIMIT)).toBe(true);
  });
});
