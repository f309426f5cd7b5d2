// CPU rules of ResourceSpec (spec 2.4, 8) that a JSON Schema cannot state. CPU values are rounded
// to one decimal place FIRST, and the bounds apply to the rounded value: 0.05 rounds to 0.1 and
// is accepted, 0.04 rounds to 0.0 and is refused, 8.04 rounds to 8.0 (accepted), 8.05 to 8.1
// (refused). So the request schemas only refuse values that no rounding can save (<= 0); the
// reference implementation and the harness both use these functions for the rest.

/** Bounds of the rounded CPU values, by ResourceSpec field. Other CPU fields (db_*) are unbounded. */
export const cpuBounds = {
  cpu: { minimum: 0.1, maximum: 8 },
  queue_cpu: { minimum: 0.1, maximum: 8 },
  cache_cpu: { minimum: 0.1, maximum: 8 },
  cpu_limit: { minimum: 0.1, maximum: 16 },
  queue_cpu_limit: { minimum: 0.1, maximum: 16 },
  cache_cpu_limit: { minimum: 0.1, maximum: 16 },
} as const satisfies Record<string, { minimum: number; maximum: number }>;

export type BoundedCpuField = keyof typeof cpuBounds;

/**
 * `x` rounded to one decimal place, half away from zero, on the decimal digits of the number as
 * written (JSON text), not on its binary approximation: 1.15 -> 1.2, 2.25 -> 2.3, -0.05 -> -0.1.
 * Zero comes back as 0, never -0.
 */
export function roundCpu(x: number): number {
  if (!Number.isFinite(x)) return x;
  // toExponential() with no argument gives the shortest digits that read back as x.
  const [mantissa = '0', exponent = '0'] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const wholeTenths = Number(exponent) + 2; // digits of |x| * 10 before its decimal point
  if (wholeTenths < 0) return 0;
  const tenths = Number(digits.slice(0, wholeTenths).padEnd(wholeTenths, '0') || '0');
  const roundsUp = Number(digits[wholeTenths] ?? '0') >= 5;
  const rounded = tenths + (roundsUp ? 1 : 0);
  return rounded === 0 ? 0 : (Math.sign(x) * rounded) / 10; // never -0
}

/** Whether a requested CPU value of `field` is accepted: rounded, then within its bounds. */
export function cpuAccepted(field: BoundedCpuField, requested: number): boolean {
  const rounded = roundCpu(requested);
  const { minimum, maximum } = cpuBounds[field];
  return rounded >= minimum && rounded <= maximum;
}
