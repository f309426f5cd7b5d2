// CPU bounds and rounding (spec 2.4, 8): the edge table, and the arbitraries staying in their class.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { acceptableRoundings, cpuEither, cpuIn, cpuOut, cpuVerdict, isRoundedFrom, BOUNDED_CPU_FIELDS } from '../../../generators/control-plane/cpu.ts';

describe('CPU edge table', () => {
  test.each([
    // value, request verdict (0.1..8), limit verdict (0.1..16), roundings
    [0.04, 'out', 'out', [0]],
    [0.05, 'either', 'either', [0.1, 0]],
    [0.1, 'in', 'in', [0.1]],
    [0.12, 'in', 'in', [0.1]],
    [0.15, 'in', 'in', [0.2, 0.1]],
    [1.26, 'in', 'in', [1.3]],
    [7.96, 'in', 'in', [8]],
    [8, 'in', 'in', [8]],
    [8.04, 'either', 'in', [8]],
    [8.05, 'either', 'in', [8.1, 8]],
    [8.06, 'out', 'in', [8.1]],
    [15.96, 'out', 'in', [16]],
    [16.04, 'out', 'either', [16]],
    [16.05, 'out', 'either', [16.1, 16]],
    [16.06, 'out', 'out', [16.1]],
    [0, 'out', 'out', [0]],
    [-1, 'out', 'out', [-1]],
  ] as const)('%s: request %s, limit %s, rounds to %j', (value, request, limit, roundings) => {
    expect(cpuVerdict('cpu', value)).toBe(request);
    expect(cpuVerdict('queue_cpu', value)).toBe(request);
    expect(cpuVerdict('cpu_limit', value)).toBe(limit);
    expect(cpuVerdict('cache_cpu_limit', value)).toBe(limit);
    expect(acceptableRoundings(value)).toEqual(roundings);
  });

  test('a reported value is judged against every acceptable rounding', () => {
    expect(isRoundedFrom(0.15, 0.1)).toBe(true);
    expect(isRoundedFrom(0.15, 0.2)).toBe(true);
    expect(isRoundedFrom(0.15, 0.15)).toBe(false);
    expect(isRoundedFrom(3.14159, 3.1)).toBe(true);
    expect(isRoundedFrom(3.14159, '3.1')).toBe(false);
  });
});

describe('CPU arbitraries stay in their class', () => {
  test.each(BOUNDED_CPU_FIELDS)('%s', (field) => {
    fc.assert(fc.property(cpuIn(field), (v) => cpuVerdict(field, v) === 'in'), { numRuns: 100 });
    fc.assert(fc.property(cpuOut(field), (v) => cpuVerdict(field, v) === 'out'), { numRuns: 100 });
    fc.assert(fc.property(cpuEither(field), (v) => cpuVerdict(field, v) === 'either'), { numRuns: 20 });
  });

  test('cpuIn honours a cap', () => {
    fc.assert(fc.property(cpuIn('cpu_limit', 3), (v) => v <= 3), { numRuns: 100 });
  });
});
