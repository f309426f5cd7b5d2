// ResourceSpec (spec 2.4, 8): only for external_container; CPU bounds, rounding to one decimal
// place, every default, and a PATCH overwriting the whole spec.
import fc from 'fast-check';
import { classifyCreate } from '../../generators/control-plane/classify.ts';
import { cpuEither, cpuVerdict, isRoundedFrom, BOUNDED_CPU_FIELDS, type BoundedCpuField } from '../../generators/control-plane/cpu.ts';
import { invalidCreate, type CreateBody } from '../../generators/control-plane/create-payloads.ts';
import { invalidPatch } from '../../generators/control-plane/patches.ts';
import { DEFAULTS_PROBE, defaultHolds, defaultsExercised, RESOURCE_DEFAULTS, validResourceSpec } from '../../generators/control-plane/resource-spec.ts';
import { requirement, type Check, type TargetProfile, byLimit } from '../../harness/conformance/index.ts';
import type { Deployment, ResourceSpec } from '../../schemas/index.ts';
import { resourceSpecMismatches, sameJson } from './support/compare.ts';
import { firstOffered, runsSimple, sharedCost, sharedCreated, sharedSimple } from './support/shared.ts';
import {
  createDeployment,
  createRuns,
  deploymentPath,
  expectPatchRefused,
  expectRefused,
  generatorContext,
  getDeployment,
  patch,
  patchOk,
  pickSource,
  refusalRuns,
  revisionCount,
  simpleBody,
  statusOf,
  tryCreate,
  expectAccepted,
  creates,
} from './support/steps.ts';

function withSpec(t: Check, spec: ResourceSpec, hint = 'res'): CreateBody {
  const body = simpleBody(t, 'external_container', hint);
  return { ...body, source_config: { ...body.source_config, resource_spec: spec } };
}

const specOf = (deployment: Deployment): Record<string, unknown> => (deployment.source_config.resource_spec ?? {}) as Record<string, unknown>;

for (const rule of ['CP-RES-001', 'CP-RES-002', 'CP-RES-003']) {
  requirement(rule, async (t: Check) => {
    const ctx = generatorContext(t, 'res');
    await t.property(
      invalidCreate(ctx, [rule]),
      async ({ payload, why }) => expectRefused(t, await tryCreate(t, payload), rule, `a body where ${why}`),
      { numRuns: refusalRuns(t), stillClassified: ({ payload }) => classifyCreate(payload, ctx.mode).breaks.includes(rule) },
    );
  });
}

/** Generated valid specs CP-RES-004 creates besides its bounds (each a deployment): none where the run's creates are limited. */
const generatedSpecs = (p: TargetProfile): number => byLimit(p, { unlimited: createRuns({ profile: p }), limited: 0 });

requirement('CP-RES-004', async (t: Check) => {
  // Every bounded value on its bounds, limits never below their requests.
  const onBounds: ResourceSpec[] = [
    { cpu: 8, cpu_limit: 16, queue_cpu: 0.1, queue_cpu_limit: 0.1, cache_cpu: 0.1, cache_cpu_limit: 16 },
    { cpu: 0.1, cpu_limit: 0.1, queue_cpu: 8, queue_cpu_limit: 16, cache_cpu: 8, cache_cpu_limit: 8 },
  ];
  for (const spec of onBounds) expectAccepted(t, await tryCreate(t, withSpec(t, spec)), 'CP-RES-004', `a resource_spec on its bounds ${JSON.stringify(spec)}`);
  // Where the run's creates are limited the bounds alone (checked above): each generated case is a deployment.
  const runs = generatedSpecs(t.profile);
  if (runs > 0) {
    await t.property(validResourceSpec, async (spec) => {
      expectAccepted(t, await tryCreate(t, withSpec(t, spec)), 'CP-RES-004', `a valid resource_spec ${JSON.stringify(spec)}`);
    }, { numRuns: runs });
  }
}, { cost: (p) => creates(2 + generatedSpecs(p)) });

const SPECIFIED = ['external_container'] as const;

/** CPU values on and around the rounding edges: each accepted one is a deployment (a revision of the run's where its creates are limited, and then one). */
const edgeRuns = (p: TargetProfile) => byLimit(p, { unlimited: Math.max(3, Math.min(p.runs, 8)), limited: 1 });

requirement('CP-RES-005', async (t: Check) => {
  const sent: ResourceSpec = { cpu: 1.26, cpu_limit: 2.04, queue_cpu: 0.15, queue_cpu_limit: 7.96, cache_cpu: 3.14159, cache_cpu_limit: 12.349, db_cpu: 0.77, db_cpu_limit: 1.55 };
  // Where the run hands one deployment to many tests, the values go in PATCHes of it (revisions, not
  // deployments): spec 2.4 rounds a resource_spec however it is sent, and a PATCH answers the deployment with it.
  const shared = (await runsSimple(t, SPECIFIED))?.id;
  const withValues = (spec: ResourceSpec) => ({ source_config: { resource_spec: spec } });
  const returned = shared ? await patchOk(t, shared, withValues(sent)) : await createDeployment(t, withSpec(t, sent));
  const wrong = resourceSpecMismatches(sent, specOf(returned));
  t.expect(wrong.length === 0, {
    message: `CPU values were not reported rounded to one decimal place: ${wrong.join(', ')}.`,
    expected: Object.fromEntries(Object.entries(sent).map(([k, v]) => [k, `${v} rounded to one decimal`])),
    seen: specOf(returned),
  });
  // Values whose bounds verdict depends on the reading: refused, or accepted rounded and in bounds.
  const edges = fc.oneof(...BOUNDED_CPU_FIELDS.map((field) => cpuEither(field).map((value): [BoundedCpuField, number] => [field, value])));
  await t.property(
    edges,
    async ([field, value]) => {
      const spec = { [field]: value };
      const exchange = shared ? await patch(t, shared, withValues(spec)) : await tryCreate(t, withSpec(t, spec, 'edge'));
      if (statusOf(exchange) !== (shared ? 200 : 201)) return expectRefused(t, exchange, 'CP-RES-005', `${field} ${value}`);
      const reported = specOf(exchange.response!.json as Deployment)[field];
      t.expectOn(exchange, isRoundedFrom(value, reported) && cpuVerdict(field, reported as number) === 'in', {
        message: `${field} ${value} was accepted but is reported as ${String(reported)}, not rounded to one decimal place within its bounds.`,
        expected: `${value} rounded to one decimal, within bounds`,
      });
      if (!shared) await t.cp.delete(deploymentPath((exchange.response!.json as Deployment).id), { query: { delete_tracing_project: true } });
    },
    { numRuns: edgeRuns(t.profile) },
  );
}, { cost: (p) => byLimit(p, { unlimited: creates(1 + edgeRuns(p)), limited: sharedCost(p, firstOffered(p, SPECIFIED), 1 + edgeRuns(p)) }) });


requirement('CP-RES-006', async (t: Check) => {
  const ctx = generatorContext(t, 'res');
  const created = await sharedSimple(t, SPECIFIED);
  const before = await revisionCount(t, created.id);
  await t.property(
    invalidPatch(ctx, 'external_container').filter((c) => c.breaks === 'CP-RES-006'),
    async ({ patch: body, why }) => expectPatchRefused(t, await patch(t, created.id, body), 'CP-RES-006', why),
    { numRuns: refusalRuns(t) },
  );
  t.expect((await revisionCount(t, created.id)) === before, { message: 'A refused PATCH with an out-of-bounds CPU value created a revision.', expected: before });
}, { cost: (p) => sharedCost(p, firstOffered(p, SPECIFIED)) });

requirement('CP-RES-007', async (t: Check) => {
  const old: ResourceSpec = { cpu: 1, memory_mb: 1234, db_storage_gi: 37, labels: { 'apc-old': 'kept' } };
  // Where the run hands one deployment to many tests the old spec is PATCHed onto it (a revision, not a deployment).
  const shared = await runsSimple(t, SPECIFIED);
  const created = shared ? await patchOk(t, shared.id, { source_config: { resource_spec: old } }) : await createDeployment(t, withSpec(t, old));
  const patched = await patchOk(t, created.id, { source_config: { resource_spec: { cpu: 2 } } });
  for (const deployment of [patched, await getDeployment(t, created.id)]) {
    const spec = specOf(deployment);
    const kept = (['memory_mb', 'db_storage_gi', 'labels'] as const).filter((f) => sameJson(spec[f], old[f]));
    t.expect(spec.cpu === 2 && kept.length === 0, {
      message: `A PATCH with resource_spec {cpu: 2} did not overwrite the spec: ${kept.length > 0 ? `it kept ${kept.join(', ')} of the old one` : 'cpu is not 2'}.`,
      expected: 'cpu 2; memory_mb, db_storage_gi and labels no longer those of the old spec',
      seen: spec,
    });
  }
}, { cost: (p) => sharedCost(p, firstOffered(p, SPECIFIED), byLimit(p, { unlimited: 1, limited: 2 })) });

const UNSPECIFIED = ['internal_container', 'gitforge', 'internal_source'] as const;

requirement('CP-RES-008', async (t: Check) => {
  const source = pickSource(t, UNSPECIFIED, 'resource_spec does not apply to it');
  const created = await sharedSimple(t, [source]);
  const [spec] = fc.sample(validResourceSpec.filter((s) => Object.keys(s).length > 0), { numRuns: 1, seed: t.testSeed });
  expectPatchRefused(t, await patch(t, created.id, { source_config: { resource_spec: spec } }), 'CP-RES-008', `sets resource_spec on a ${source} deployment`);
}, { cost: (p) => sharedCost(p, firstOffered(p, UNSPECIFIED)) });

// One test per default, so a target missing one default fails that rule alone.
/** The index of the probe that exercises a default rule. */
const probeOf = (rule: (typeof RESOURCE_DEFAULTS)[number]): number => DEFAULTS_PROBE.findIndex((spec) => defaultsExercised(spec).includes(rule));

const DEFAULT_RULES = [
  'CP-RES-DEF-001', 'CP-RES-DEF-002', 'CP-RES-DEF-003', 'CP-RES-DEF-004', 'CP-RES-DEF-005', 'CP-RES-DEF-006',
  'CP-RES-DEF-007', 'CP-RES-DEF-008', 'CP-RES-DEF-009', 'CP-RES-DEF-010', 'CP-RES-DEF-011', 'CP-RES-DEF-012',
];

for (const id of DEFAULT_RULES) {
  const rule = RESOURCE_DEFAULTS.find((d) => d.requirement === id)!;
  requirement(id, async (t: Check) => {
    // The rules a probe exercises share its deployment (where the run's creates are limited: one per probe for the run).
    const probe = probeOf(rule);
    const returned = specOf(await sharedCreated(t, `defaults-${probe}`, () => withSpec(t, DEFAULTS_PROBE[probe]!, 'def')));
    const { ok, expected, seen } = defaultHolds(returned, rule);
    t.expect(ok, {
      message: `${rule.field} was left out, so it should default to ${rule.factor === 1 ? '' : `${rule.factor}x `}${rule.from} (${String(expected)}); the deployment reports ${seen === undefined ? 'nothing' : JSON.stringify(seen)}.`,
      expected: { [rule.field]: expected },
      seen: returned,
    });
  }, { cost: (p) => sharedCost(p, `defaults-${probeOf(rule)}`) });
}
