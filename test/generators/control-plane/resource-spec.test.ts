// ResourceSpec values and defaults (spec 2.4): generated specs are valid for external_container,
// the probes exercise every default, and defaultHolds judges a returned spec.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { validate } from '../../../schemas/index.ts';
import { classifyCreate } from '../../../generators/control-plane/classify.ts';
import { baseCreate } from '../../../generators/control-plane/create-payloads.ts';
import { DEFAULTS_PROBE, defaultHolds, defaultsExercised, RESOURCE_DEFAULTS, validResourceSpec } from '../../../generators/control-plane/resource-spec.ts';
import { selfHosted } from './contexts.ts';

test('generated specs are valid on an external_container create, limits never below requests', () => {
  const body = baseCreate(selfHosted, 'external_container', 'apc-r');
  fc.assert(
    fc.property(validResourceSpec, (spec) => {
      expect(validate('ResourceSpec', spec).ok).toBe(true);
      expect(classifyCreate({ ...body, source_config: { ...body.source_config, resource_spec: spec } }, 'self-hosted').valid).toBe(true);
      for (const [request, limit] of [['cpu', 'cpu_limit'], ['queue_cpu', 'queue_cpu_limit'], ['memory_mb', 'memory_limit_mb'], ['min_scale', 'max_scale']] as const) {
        if (spec[limit] != null) {
          expect(spec[request]).not.toBeNull();
          expect(spec[limit]!).toBeGreaterThanOrEqual(spec[request]!);
        }
      }
    }),
    { numRuns: 200 },
  );
});

test('the probes exercise every default of 2.4', () => {
  const exercised = new Set(DEFAULTS_PROBE.flatMap((spec) => defaultsExercised(spec).map((d) => d.requirement)));
  expect([...exercised].sort()).toEqual(RESOURCE_DEFAULTS.map((d) => d.requirement).sort());
});

test('defaultHolds accepts the defaults and refuses anything else', () => {
  const returned: Record<string, unknown> = { cpu: 1.5, cpu_limit: 3, memory_mb: 512, memory_limit_mb: 1024, cache_memory_mb: 256, cache_memory_limit_mb: 512 };
  const rule = (field: string) => RESOURCE_DEFAULTS.find((d) => d.field === field)!;
  expect(defaultHolds(returned, rule('cpu_limit')).ok).toBe(true);
  expect(defaultHolds(returned, rule('memory_limit_mb')).ok).toBe(true);
  expect(defaultHolds(returned, rule('cache_memory_limit_mb'))).toEqual({ ok: false, expected: 256, seen: 512 });
  expect(defaultHolds({ ...returned, cpu_limit: null }, rule('cpu_limit')).ok).toBe(false);
  // A CPU default may come from the rounded or the unrounded base: 2 x 0.15 is 0.3, 2 x 0.2 is 0.4.
  expect(defaultHolds({ cpu: 0.2, cpu_limit: 0.3 }, rule('cpu_limit')).ok).toBe(true);
  expect(defaultHolds({ cpu: 0.2, cpu_limit: 0.6 }, rule('cpu_limit')).ok).toBe(false);
});
