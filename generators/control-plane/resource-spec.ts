// ResourceSpec values (spec 2.4) and its defaults. Valid specs stay clear of what a real cluster
// would refuse although the spec does not say so: a limit is only sent with its request and is
// never below it, and replica counts come in ordered pairs.
import fc from 'fast-check';
import { matching } from '../matching.ts';
import type { ResourceSpec } from '../../schemas/index.ts';
import { cpuIn, cpuOnGrid, type BoundedCpuField } from './cpu.ts';
import { compact } from './values.ts';

type Spec = Record<string, unknown>;

/** One default of 2.4: `field` defaults to `factor` x `from`. */
export interface ResourceDefault {
  field: string;
  from: string;
  factor: number;
  requirement: string;
  cpu: boolean;
}

/** Every default of 2.4, in an order where each base is settled before what depends on it. */
export const RESOURCE_DEFAULTS: readonly ResourceDefault[] = [
  { field: 'cpu_limit', from: 'cpu', factor: 2, requirement: 'CP-RES-DEF-001', cpu: true },
  { field: 'memory_limit_mb', from: 'memory_mb', factor: 2, requirement: 'CP-RES-DEF-002', cpu: false },
  { field: 'queue_min_scale', from: 'min_scale', factor: 1, requirement: 'CP-RES-DEF-003', cpu: false },
  { field: 'queue_max_scale', from: 'max_scale', factor: 1, requirement: 'CP-RES-DEF-004', cpu: false },
  { field: 'queue_cpu', from: 'cpu', factor: 1, requirement: 'CP-RES-DEF-005', cpu: true },
  { field: 'queue_cpu_limit', from: 'queue_cpu', factor: 2, requirement: 'CP-RES-DEF-006', cpu: true },
  { field: 'queue_memory_mb', from: 'memory_mb', factor: 1, requirement: 'CP-RES-DEF-007', cpu: false },
  { field: 'queue_memory_limit_mb', from: 'queue_memory_mb', factor: 2, requirement: 'CP-RES-DEF-008', cpu: false },
  { field: 'cache_cpu_limit', from: 'cache_cpu', factor: 2, requirement: 'CP-RES-DEF-009', cpu: true },
  { field: 'cache_memory_limit_mb', from: 'cache_memory_mb', factor: 1, requirement: 'CP-RES-DEF-010', cpu: false },
  { field: 'db_cpu_limit', from: 'db_cpu', factor: 2, requirement: 'CP-RES-DEF-011', cpu: true },
  { field: 'db_memory_limit_mb', from: 'db_memory_mb', factor: 2, requirement: 'CP-RES-DEF-012', cpu: false },
];

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Whether a returned spec shows the default of `rule`, judged from the base value the server
 * itself reports: `factor x base`. For CPU the default may come from the rounded or the unrounded
 * base and is rounded again, so it may differ by `factor` half-tenths plus one half-tenth.
 */
export function defaultHolds(returned: Spec, rule: ResourceDefault): { ok: boolean; expected: number | undefined; seen: unknown } {
  const base = returned[rule.from];
  const seen = returned[rule.field];
  if (!isNumber(base)) return { ok: false, expected: undefined, seen };
  const expected = base * rule.factor;
  const ok = isNumber(seen) && (rule.cpu ? Math.abs(seen - expected) <= 0.05 * (rule.factor + 1) + 1e-9 : seen === expected);
  return { ok, expected, seen };
}

/** The defaults a create with `sent` exercises: the field left out (or null) and its base sent or itself defaulted. */
export function defaultsExercised(sent: Spec): ResourceDefault[] {
  const settled = new Set(Object.keys(sent).filter((k) => sent[k] !== undefined && sent[k] !== null));
  const exercised: ResourceDefault[] = [];
  for (const rule of RESOURCE_DEFAULTS) {
    if (!settled.has(rule.field) && settled.has(rule.from)) {
      exercised.push(rule);
      settled.add(rule.field);
    }
  }
  return exercised;
}

/** A request and its limit: the limit only with the request, never below it. */
function cpuPair(request: BoundedCpuField, limit: BoundedCpuField): fc.Arbitrary<Spec> {
  return fc
    .record({ req: cpuIn(request), lim: cpuIn(limit), withLimit: fc.boolean(), with: fc.boolean() })
    .map(({ req, lim, withLimit, with: given }) => {
      if (!given) return {};
      const [low, high] = req <= lim ? [req, lim] : [lim, req];
      return withLimit ? { [request]: low, [limit]: high } : { [request]: low };
    });
}

function memoryPair(request: string, limit: string): fc.Arbitrary<Spec> {
  return fc
    .record({ req: fc.integer({ min: 128, max: 16_384 }), extra: fc.integer({ min: 0, max: 16_384 }), withLimit: fc.boolean(), with: fc.boolean() })
    .map(({ req, extra, withLimit, with: given }) => (!given ? {} : withLimit ? { [request]: req, [limit]: req + extra } : { [request]: req }));
}

function scalePair(min: string, max: string): fc.Arbitrary<Spec> {
  return fc
    .record({ low: fc.integer({ min: 1, max: 3 }), extra: fc.integer({ min: 0, max: 3 }), with: fc.boolean() })
    .map(({ low, extra, with: given }) => (given ? { [min]: low, [max]: low + extra } : {}));
}

const labelKey = matching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);
const labelValue = matching(/^[a-z0-9]{0,12}$/);

/** A ResourceSpec every reading of the spec accepts for an external_container deployment. */
export const validResourceSpec: fc.Arbitrary<ResourceSpec> = fc
  .tuple(
    cpuPair('cpu', 'cpu_limit'),
    cpuPair('queue_cpu', 'queue_cpu_limit'),
    cpuPair('cache_cpu', 'cache_cpu_limit'),
    memoryPair('memory_mb', 'memory_limit_mb'),
    memoryPair('queue_memory_mb', 'queue_memory_limit_mb'),
    memoryPair('cache_memory_mb', 'cache_memory_limit_mb'),
    memoryPair('db_memory_mb', 'db_memory_limit_mb'),
    scalePair('min_scale', 'max_scale'),
    scalePair('queue_min_scale', 'queue_max_scale'),
    fc.record(
      {
        db_cpu: cpuOnGrid(0.1, 4),
        db_storage_gi: fc.integer({ min: 1, max: 100 }),
        db_max_connections: fc.integer({ min: 10, max: 500 }),
        labels: fc.dictionary(labelKey, labelValue, { maxKeys: 2 }),
        annotations: fc.dictionary(labelKey, matching(/^[ -~]{0,20}$/), { maxKeys: 2 }),
      },
      { requiredKeys: [] },
    ),
  )
  .map((parts) => compact(Object.assign({}, ...parts) as Spec) as ResourceSpec);

/** Specs that together exercise every default of RESOURCE_DEFAULTS (values on the tenths grid). */
export const DEFAULTS_PROBE: readonly ResourceSpec[] = [
  { cpu: 1.5, memory_mb: 1024, min_scale: 1, max_scale: 2, cache_cpu: 0.5, cache_memory_mb: 256, db_cpu: 0.7, db_memory_mb: 512 },
  // queue_cpu and queue_memory_mb given and unlike cpu and memory_mb: their limits follow them, not cpu.
  { cpu: 1, memory_mb: 1000, queue_cpu: 0.3, queue_memory_mb: 300, min_scale: 2, max_scale: 3 },
];
