// CPU rounding and bounds (spec 2.4, 8): round to one decimal first, then apply the bounds.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { cpuAccepted, cpuBounds, roundCpu, type BoundedCpuField } from '../../schemas/resource-spec-rules.ts';

describe('roundCpu', () => {
  it.each([
    [0.05, 0.1],
    [0.04, 0],
    [8.04, 8],
    [8.05, 8.1],
    [16.05, 16.1],
    [1.15, 1.2],
    [2.25, 2.3],
    [0.95, 1],
    [-0.05, -0.1],
    [-1.04, -1],
    [3, 3],
    [0, 0],
    [-0.01, 0],
    [1e-9, 0],
    [123456.789, 123456.8],
  ])('rounds %s to %s (half away from zero, on the written digits)', (input, expected) => {
    expect(roundCpu(input)).toBe(expected);
  });

  // Integer arithmetic on the decimal text stands in for rounding by hand.
  test.prop([fc.integer({ min: -200_000, max: 200_000 })], { numRuns: 100 })('rounds any two-decimal number as a person would', (hundredths) => {
    const value = Number((hundredths / 100).toFixed(2));
    const magnitude = Math.abs(hundredths);
    const tenths = Math.floor(magnitude / 10) + (magnitude % 10 >= 5 ? 1 : 0);
    expect(roundCpu(value)).toBe(tenths === 0 ? 0 : (Math.sign(hundredths) * tenths) / 10);
  });

  test.prop([fc.double({ min: -1e6, max: 1e6, noNaN: true })], { numRuns: 100 })('lands within 0.05 on a value that rounds to itself', (value) => {
    const rounded = roundCpu(value);
    expect(Math.abs(rounded - value)).toBeLessThanOrEqual(0.05 + 1e-9);
    expect(roundCpu(rounded)).toBe(rounded);
    expect(Number.isInteger(Math.round(rounded * 10))).toBe(true);
    expect(Math.abs(rounded * 10 - Math.round(rounded * 10))).toBeLessThan(1e-6);
  });
});

describe('cpuAccepted', () => {
  it('bounds requests 0.1..8 and limits 0.1..16, after rounding', () => {
    expect(cpuBounds.cpu).toEqual({ minimum: 0.1, maximum: 8 });
    expect(cpuBounds.cpu_limit).toEqual({ minimum: 0.1, maximum: 16 });
    const cases: [BoundedCpuField, number, boolean][] = [
      ['cpu', 0.05, true],
      ['cpu', 0.04, false],
      ['cpu', 8.04, true],
      ['cpu', 8.05, false],
      ['queue_cpu', 0.1, true],
      ['cache_cpu', 8, true],
      ['cache_cpu', 9, false],
      ['cpu_limit', 16.04, true],
      ['cpu_limit', 16.05, false],
      ['queue_cpu_limit', 12, true],
      ['cache_cpu_limit', 0, false],
      ['cache_cpu_limit', -3, false],
    ];
    for (const [field, value, accepted] of cases) expect(cpuAccepted(field, value), `${field} = ${value}`).toBe(accepted);
  });

  it('covers exactly the six bounded CPU fields', () => {
    expect(Object.keys(cpuBounds).sort()).toEqual(['cache_cpu', 'cache_cpu_limit', 'cpu', 'cpu_limit', 'queue_cpu', 'queue_cpu_limit']);
  });
});
