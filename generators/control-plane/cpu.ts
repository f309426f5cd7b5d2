// CPU values of a ResourceSpec (spec 2.4, 8): bounds and rounding to one decimal place. The spec
// does not say whether the bounds apply before or after rounding, nor how a tie (0.15) rounds, so
// every reading is considered: a value is `in` when every reading accepts it, `out` when every
// reading refuses it, and `either` when the verdict depends on the reading (0.05, 8.04, 16.05).
import fc from 'fast-check';
import { cpuBounds, roundCpu, type BoundedCpuField } from '../../schemas/resource-spec-rules.ts';

export { cpuBounds, type BoundedCpuField };

export const BOUNDED_CPU_FIELDS = Object.keys(cpuBounds) as BoundedCpuField[];
/** Every CPU field of a ResourceSpec: rounded, but only the first six are bounded. */
export const CPU_FIELDS = [...BOUNDED_CPU_FIELDS, 'db_cpu', 'db_cpu_limit'] as const;

export type CpuVerdict = 'in' | 'out' | 'either';

/** True when `x`, as written in JSON, ends exactly in a 5 after the tenths (a rounding tie). */
function isDecimalTie(x: number): boolean {
  const shifted = Math.abs(x) * 10;
  const text = String(Math.abs(x));
  if (text.includes('e')) return false;
  const [, decimals = ''] = text.split('.');
  return decimals.length === 2 && decimals.endsWith('5') && Math.abs(shifted - Math.trunc(shifted) - 0.5) < 1e-9;
}

/**
 * The values a conforming server may report for a requested CPU value: the value rounded half
 * away from zero and, for a tie, the tenth towards zero as well (a binary or half-even rounding).
 */
export function acceptableRoundings(x: number): number[] {
  const rounded = roundCpu(x);
  if (!isDecimalTie(x)) return [rounded];
  return [rounded, Math.round((rounded - Math.sign(x) * 0.1) * 10) / 10];
}

/** Whether `reported` is one of the acceptable roundings of `requested`. */
export function isRoundedFrom(requested: number, reported: unknown): boolean {
  return typeof reported === 'number' && acceptableRoundings(requested).some((r) => Math.abs(r - reported) < 1e-9);
}

function within(field: BoundedCpuField, x: number): boolean {
  const { minimum, maximum } = cpuBounds[field];
  return x >= minimum - 1e-12 && x <= maximum + 1e-12;
}

/** How a requested value of a bounded CPU field must be treated: see the file comment. */
export function cpuVerdict(field: BoundedCpuField, x: number): CpuVerdict {
  const readings = [within(field, x), ...acceptableRoundings(x).map((r) => within(field, r))];
  if (readings.every(Boolean)) return 'in';
  if (readings.every((ok) => !ok)) return 'out';
  return 'either';
}

/**
 * Edge values around both bounds of a field: exactly on a bound, just inside (rounding onto the
 * bound), ties and values a rounding decides, and values out whatever the reading.
 */
function edgeValues(field: BoundedCpuField): number[] {
  const max = cpuBounds[field].maximum;
  return [0.04, 0.05, 0.06, 0.1, 0.12, 0.15, max - 0.04, max, max + 0.04, max + 0.05, max + 0.06, max + 1];
}

/** Tenths from `min` to `max`: values every reading keeps unchanged. */
export const cpuOnGrid = (min: number, max: number): fc.Arbitrary<number> =>
  fc.integer({ min: Math.round(min * 10), max: Math.round(max * 10) }).map((tenths) => tenths / 10);

/** Any value every reading accepts for `field`, at most `cap`: on the grid, off it, and edges. */
export function cpuIn(field: BoundedCpuField, cap: number = cpuBounds[field].maximum): fc.Arbitrary<number> {
  const { minimum } = cpuBounds[field];
  const max = Math.min(cap, cpuBounds[field].maximum);
  return fc
    .oneof(
      cpuOnGrid(minimum, max),
      fc.double({ min: minimum, max, noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(...edgeValues(field).filter((v) => v <= max)),
    )
    .filter((v) => cpuVerdict(field, v) === 'in');
}

/** Values every reading refuses for `field`: below, between 0 and the lower edge, above. */
export function cpuOut(field: BoundedCpuField): fc.Arbitrary<number> {
  const { maximum } = cpuBounds[field];
  return fc
    .oneof(
      fc.constantFrom(0.04, 0.01, 0, -0.1, -1, maximum + 0.06, maximum + 0.1, maximum + 1, maximum * 10),
      fc.double({ min: maximum + 0.06, max: 1000, noNaN: true, noDefaultInfinity: true }),
      fc.double({ min: -100, max: 0.04, noNaN: true, noDefaultInfinity: true }),
    )
    .filter((v) => cpuVerdict(field, v) === 'out');
}

/** Values whose verdict depends on the reading: either answer conforms. */
export function cpuEither(field: BoundedCpuField): fc.Arbitrary<number> {
  return fc.constantFrom(...edgeValues(field)).filter((v) => cpuVerdict(field, v) === 'either');
}

/** One of `fields` and a value every reading refuses for it. */
export const cpuOutOf = (fields: readonly BoundedCpuField[]): fc.Arbitrary<[BoundedCpuField, number]> =>
  fc.oneof(...fields.map((field) => cpuOut(field).map((value): [BoundedCpuField, number] => [field, value])));
