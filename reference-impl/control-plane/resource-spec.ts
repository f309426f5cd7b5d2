// ResourceSpec as stored and returned (spec 2.4, 8): CPU values rounded to one decimal, bounds
// checked after rounding, and every default applied (to rounded values, and rounded again).
import { cpuBounds, roundCpu } from '../../schemas/resource-spec-rules.ts';
import { unprocessable, type ValidationIssue } from '../http-errors.ts';
import type { ResourceSpec } from './api-types.ts';
import type { FaultCheck } from './faults.ts';

type Spec = Record<string, unknown>;

const isCpuField = (field: string) => /(^|_)cpu(_limit)?$/.test(field);

/** Defaults of spec 2.4: field → [source field, factor], applied in this order. */
const DEFAULTS: [field: string, from: string, factor: number][] = [
  ['cpu_limit', 'cpu', 2],
  ['memory_limit_mb', 'memory_mb', 2],
  ['queue_min_scale', 'min_scale', 1],
  ['queue_max_scale', 'max_scale', 1],
  ['queue_cpu', 'cpu', 1],
  ['queue_cpu_limit', 'queue_cpu', 2],
  ['queue_memory_mb', 'memory_mb', 1],
  ['queue_memory_limit_mb', 'queue_memory_mb', 2],
  ['cache_cpu_limit', 'cache_cpu', 2],
  ['cache_memory_limit_mb', 'cache_memory_mb', 1],
  ['db_cpu_limit', 'db_cpu', 2],
  ['db_memory_limit_mb', 'db_memory_mb', 2],
];

/**
 * The spec to store for a request's `resource_spec`, or a 422 naming each CPU value out of bounds
 * (`loc` under `locPrefix`).
 */
export function normalizeResourceSpec(requested: ResourceSpec, locPrefix: (string | number)[], faults: FaultCheck): ResourceSpec {
  const spec: Spec = { ...requested };
  // FAULT cp.no-cpu-rounding: CPU values are stored as sent.
  const round = faults('cp.no-cpu-rounding') ? (value: number) => value : roundCpu;
  const roundIfCpu = (field: string) => {
    const value = spec[field];
    if (isCpuField(field) && typeof value === 'number') spec[field] = round(value);
  };
  Object.keys(spec).forEach(roundIfCpu);
  // FAULT cp.no-resource-defaults: defaults are not filled in.
  if (!faults('cp.no-resource-defaults')) {
    for (const [field, from, factor] of DEFAULTS) {
      const base = spec[from];
      if ((spec[field] === undefined || spec[field] === null) && typeof base === 'number') {
        spec[field] = base * factor;
        roundIfCpu(field);
      }
    }
  }
  const issues: ValidationIssue[] = [];
  for (const [field, bounds] of Object.entries(cpuBounds)) {
    const value = spec[field];
    if (typeof value !== 'number') continue;
    if (value < bounds.minimum) {
      issues.push({ loc: [...locPrefix, field], msg: `Input should be greater than or equal to ${bounds.minimum} (after rounding to one decimal)`, type: 'greater_than_equal' });
    } else if (value > bounds.maximum) {
      issues.push({ loc: [...locPrefix, field], msg: `Input should be less than or equal to ${bounds.maximum} (after rounding to one decimal)`, type: 'less_than_equal' });
    }
  }
  if (issues.length > 0) throw unprocessable(issues);
  return spec;
}
