// Create bodies (POST /v2/deployments): valid ones over the space the spec allows for each source,
// and invalid ones of each kind, each naming the rule it breaks.
import fc from 'fast-check';
import type { DeploymentCreateRequest, Source } from '../../schemas/index.ts';
import { DEPLOYMENT_TYPES } from '../../schemas/index.ts';
import { cpuOutOf, type BoundedCpuField } from './cpu.ts';
import { validSources, type GeneratorContext } from './context.ts';
import { validResourceSpec } from './resource-spec.ts';
import {
  arbitraryTarballPath,
  compact,
  deploymentName,
  exampleUrl,
  optionalNullable,
  secretReferences,
  secrets,
  tagRef,
  uuid,
} from './values.ts';

export type CreateBody = DeploymentCreateRequest;

/** An invalid create body, the rule it breaks and why, in words for the report. */
export interface InvalidCreate {
  payload: Record<string, unknown>;
  breaks: string;
  why: string;
}

/** Explicit nulls for source_config fields that do not apply: "not given" spelled out. */
const nullsOf = (fields: string[]): fc.Arbitrary<Record<string, null | undefined>> =>
  fc.record(Object.fromEntries(fields.map((f) => [f, fc.constantFrom(null, undefined)])), { requiredKeys: [] });

function gitforgeConfig(ctx: GeneratorContext) {
  const fx = ctx.fixtures.gitforge;
  return fc
    .record({
      deployment_type: fc.constantFrom(...DEPLOYMENT_TYPES),
      build_on_push: optionalNullable(fc.boolean()),
      others: nullsOf(['custom_url', 'resource_spec', 'listener_id', 'listener_config']),
    })
    .map(({ deployment_type, build_on_push, others }) => ({
      source_config: compact({ ...others, integration_id: fx.integrationId, repo_url: fx.repoUrl, deployment_type, build_on_push }),
      source_revision_config: { repo_ref: fx.repoRef, graph_config_path: fx.graphConfigPath },
    }));
}

function externalConfig(ctx: GeneratorContext) {
  const fx = ctx.fixtures;
  return fc
    .record({
      custom_url: optionalNullable(exampleUrl),
      resource_spec: optionalNullable(validResourceSpec),
      graph_config_path: fc.constantFrom(null, undefined),
      secret_references: fc.constantFrom(null, undefined, []),
    })
    .map(({ custom_url, resource_spec, graph_config_path, secret_references }) => ({
      source_config: compact({
        listener_id: fx.listenerId,
        listener_config: fx.clusterNamespace ? { cluster_namespace: fx.clusterNamespace } : undefined,
        custom_url,
        resource_spec,
      }),
      source_revision_config: compact({ image_uri: fx.imageUri, graph_config_path }),
      secret_references,
    }));
}

function internalContainerConfig(ctx: GeneratorContext) {
  return fc
    .record({ others: nullsOf(['repo_url', 'build_on_push', 'resource_spec', 'custom_url']), graph_config_path: fc.constantFrom(null, undefined) })
    .map(({ others, graph_config_path }) => ({
      source_config: compact(others),
      source_revision_config: compact({ image_uri: ctx.fixtures.imageUri, graph_config_path }),
    }));
}

function internalSourceConfig(ctx: GeneratorContext) {
  return fc
    .record({ others: nullsOf(['integration_id', 'listener_id', 'resource_spec']), source_tarball_path: fc.constantFrom(null, undefined) })
    .map(({ others, source_tarball_path }) => ({
      source_config: compact(others),
      source_revision_config: compact({ graph_config_path: ctx.fixtures.gitforge.graphConfigPath, source_tarball_path }),
    }));
}

const CONFIGS: Record<Source, (ctx: GeneratorContext) => fc.Arbitrary<Record<string, unknown>>> = {
  gitforge: gitforgeConfig,
  external_container: externalConfig,
  internal_container: internalContainerConfig,
  internal_source: internalSourceConfig,
};

/** A valid create body for `source` (which must be valid for the context's mode). */
export function validCreateFor(ctx: GeneratorContext, source: Source): fc.Arbitrary<CreateBody> {
  return fc
    .record({ name: deploymentName(ctx.namePrefix), secrets, parts: CONFIGS[source](ctx) })
    .map(({ name, secrets: list, parts }) => compact({ name, source, secrets: list, ...parts }) as CreateBody);
}

/** A valid create body for any source the target offers in its mode. */
export function validCreate(ctx: GeneratorContext): fc.Arbitrary<CreateBody> {
  const sources = validSources(ctx);
  if (sources.length === 0) throw new Error(`No source of [${ctx.sources.join(', ')}] is valid on a ${ctx.mode} control plane.`);
  return fc.oneof(...sources.map((source) => validCreateFor(ctx, source)));
}

/** The simplest valid create body for `source`: fixtures only, no secrets. */
export function baseCreate(ctx: GeneratorContext, source: Source, name: string): CreateBody {
  const fx = ctx.fixtures;
  const bodies: Record<Source, Omit<CreateBody, 'name' | 'source' | 'secrets'>> = {
    gitforge: {
      source_config: compact({ integration_id: fx.gitforge.integrationId, repo_url: fx.gitforge.repoUrl, deployment_type: 'dev', build_on_push: false }),
      source_revision_config: { repo_ref: fx.gitforge.repoRef, graph_config_path: fx.gitforge.graphConfigPath },
    },
    external_container: {
      source_config: compact({
        listener_id: fx.listenerId,
        listener_config: fx.clusterNamespace ? { cluster_namespace: fx.clusterNamespace } : undefined,
      }),
      source_revision_config: { image_uri: fx.imageUri },
    },
    internal_container: { source_config: {}, source_revision_config: { image_uri: fx.imageUri } },
    internal_source: { source_config: {}, source_revision_config: { graph_config_path: fx.gitforge.graphConfigPath } },
  };
  return { name, source, secrets: [], ...bodies[source] };
}

// Invalid bodies. Each builds on a valid body of a source the target offers, and changes one thing.

type Json = Record<string, unknown>;
type InvalidMaker = (ctx: GeneratorContext) => fc.Arbitrary<InvalidCreate> | undefined;

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function withSource(ctx: GeneratorContext, pick: (s: Source) => boolean): Source[] {
  return validSources(ctx).filter(pick);
}

/** Valid bodies of the given sources, changed by `change`. */
function changed(
  ctx: GeneratorContext,
  sources: Source[],
  change: (body: Json, source: Source) => fc.Arbitrary<{ body: Json; why: string }>,
  breaks: string,
): fc.Arbitrary<InvalidCreate> | undefined {
  if (sources.length === 0) return undefined;
  const perSource = sources.map((source) => validCreateFor(ctx, source).chain((body) => change(clone(body) as Json, source)));
  return fc.oneof(...perSource).map(({ body, why }) => ({ payload: body, breaks, why }));
}

const setIn = (body: Json, path: string[], value: unknown): Json => {
  let at = body;
  for (const key of path.slice(0, -1)) {
    if (at[key] === null || typeof at[key] !== 'object') at[key] = {};
    at = at[key] as Json;
  }
  at[path[path.length - 1]!] = value;
  return body;
};

const nonEmptySpec = validResourceSpec.filter((spec) => Object.keys(spec).length > 0);

const REQUIRED = ['name', 'source', 'source_config', 'source_revision_config', 'secrets'] as const;

const wrongTypes: [string[], fc.Arbitrary<unknown>, string][] = [
  [['name'], fc.constantFrom(42, true, ['a'], {}), 'name is not a string'],
  [['secrets'], fc.constantFrom('APC_X=1', {}, 7), 'secrets is not an array'],
  [['secrets'], fc.constant([{ name: 'APC_ONLY_NAME' }]), 'a secret has no value'],
  [['secrets'], fc.constant([{ name: 5, value: 'sv-abcdefgh' }]), 'a secret name is not a string'],
  [['source_config'], fc.constantFrom('config', 3, [1]), 'source_config is not an object'],
  [['source_revision_config'], fc.constantFrom('main', 3, [1]), 'source_revision_config is not an object'],
];

/** Makers of invalid bodies, by the rule they break. */
export const INVALID_CREATES: Record<string, InvalidMaker> = {
  'CP-CREATE-007': (ctx) =>
    changed(ctx, validSources(ctx), (body) => fc.constantFrom(...REQUIRED).map((field) => {
      delete body[field];
      return { body, why: `the required field ${field} is missing` };
    }), 'CP-CREATE-007'),
  'CP-CREATE-008': (ctx) =>
    changed(ctx, validSources(ctx), (body, source) => {
      const cases = [...wrongTypes];
      if (source === 'gitforge') {
        cases.push([['source_config', 'deployment_type'], fc.constantFrom('staging', 'DEV', ''), 'deployment_type is not one of dev_free, dev, prod']);
        cases.push([['source_config', 'build_on_push'], fc.constantFrom('yes', 1), 'build_on_push is not a boolean']);
      }
      return fc.constantFrom(...cases).chain(([path, value, why]) => value.map((v) => ({ body: setIn(body, path, v), why })));
    }, 'CP-CREATE-008'),
  'CP-SRC-007': (ctx) =>
    changed(ctx, validSources(ctx), (body) =>
      fc.constantFrom('ftp', 'GITFORGE', 'container', '').map((source) => ({ body: { ...body, source }, why: 'source is not a source kind' })), 'CP-SRC-007'),
  'CP-SRC-002': (ctx) =>
    ctx.mode === 'hosted'
      ? validCreateFor({ ...ctx, mode: 'self-hosted' }, 'external_container').map((payload) => ({
          payload: payload as unknown as Json,
          breaks: 'CP-SRC-002',
          why: 'external_container is for self-hosted deployments only',
        }))
      : undefined,
  'CP-SRC-004': (ctx) =>
    ctx.mode === 'self-hosted'
      ? validCreateFor({ ...ctx, mode: 'hosted' }, 'gitforge').map((payload) => ({
          payload: payload as unknown as Json,
          breaks: 'CP-SRC-004',
          why: 'gitforge is for hosted deployments only',
        }))
      : undefined,
  'CP-APPL-001': (ctx) =>
    changed(ctx, withSource(ctx, (s) => s !== 'gitforge'), (body) =>
      fc
        .oneof(
          uuid.map((v) => ['integration_id', v] as const),
          fc.constant(['repo_url', ctx.fixtures.gitforge.repoUrl] as const),
          fc.constantFrom(...DEPLOYMENT_TYPES).map((v) => ['deployment_type', v] as const),
          fc.constant(['build_on_push', true] as const),
        )
        .map(([field, value]) => ({ body: setIn(body, ['source_config', field], value), why: `${field} is only for gitforge` })), 'CP-APPL-001'),
  'CP-APPL-002': (ctx) =>
    changed(ctx, withSource(ctx, (s) => s !== 'external_container'), (body) =>
      fc
        .oneof(
          uuid.map((v) => ['listener_id', v] as const),
          fc.constant(['listener_config', { cluster_namespace: ctx.fixtures.clusterNamespace ?? 'default' }] as const),
        )
        .map(([field, value]) => ({ body: setIn(body, ['source_config', field], value), why: `${field} is only for external_container` })), 'CP-APPL-002'),
  'CP-APPL-003': (ctx) =>
    changed(ctx, withSource(ctx, (s) => s !== 'external_container'), (body) =>
      exampleUrl.map((url) => ({ body: setIn(body, ['source_config', 'custom_url'], url), why: 'custom_url is settable only for external_container' })), 'CP-APPL-003'),
  'CP-APPL-004': (ctx) =>
    changed(ctx, withSource(ctx, (s) => s !== 'external_container'), (body) =>
      secretReferences.map((refs) => ({ body: { ...body, secret_references: refs }, why: 'secret_references apply only to external_container' })), 'CP-APPL-004'),
  'CP-APPL-005': (ctx) =>
    changed(ctx, withSource(ctx, (s) => s !== 'gitforge'), (body) =>
      fc.constantFrom(ctx.fixtures.gitforge.repoRef, 'main').map((ref) => ({ body: setIn(body, ['source_revision_config', 'repo_ref'], ref), why: 'repo_ref is only for gitforge' })), 'CP-APPL-005'),
  'CP-APPL-006': (ctx) =>
    changed(ctx, withSource(ctx, (s) => s !== 'internal_source'), (body) =>
      arbitraryTarballPath.map((path) => ({ body: setIn(body, ['source_revision_config', 'source_tarball_path'], path), why: 'source_tarball_path is only for internal_source' })), 'CP-APPL-006'),
  'CP-TAR-001': (ctx) =>
    changed(ctx, withSource(ctx, (s) => s === 'internal_source'), (body) =>
      arbitraryTarballPath.map((path) => ({ body: setIn(body, ['source_revision_config', 'source_tarball_path'], path), why: 'source_tarball_path was not handed out by upload-url' })), 'CP-TAR-001'),
  'CP-GRAPH-001': (ctx) => graphMissing(ctx, 'gitforge', 'CP-GRAPH-001'),
  'CP-GRAPH-002': (ctx) => graphMissing(ctx, 'internal_source', 'CP-GRAPH-002'),
  'CP-GRAPH-003': (ctx) => graphGiven(ctx, 'external_container', 'CP-GRAPH-003'),
  'CP-GRAPH-004': (ctx) => graphGiven(ctx, 'internal_container', 'CP-GRAPH-004'),
  'CP-TAG-001': (ctx) =>
    changed(ctx, withSource(ctx, (s) => s === 'gitforge'), (body) =>
      tagRef.map((ref) => {
        setIn(body, ['source_revision_config', 'repo_ref'], ref);
        return { body: setIn(body, ['source_config', 'build_on_push'], true), why: 'repo_ref is a tag and build_on_push is true' };
      }), 'CP-TAG-001'),
  'CP-RES-001': (ctx) =>
    changed(ctx, withSource(ctx, (s) => s !== 'external_container'), (body) =>
      nonEmptySpec.map((spec) => ({ body: setIn(body, ['source_config', 'resource_spec'], spec), why: 'resource_spec applies only to external_container' })), 'CP-RES-001'),
  'CP-RES-002': (ctx) => cpuOutOfBounds(ctx, ['cpu', 'queue_cpu', 'cache_cpu'], 'CP-RES-002'),
  'CP-RES-003': (ctx) => cpuOutOfBounds(ctx, ['cpu_limit', 'queue_cpu_limit', 'cache_cpu_limit'], 'CP-RES-003'),
};

function graphMissing(ctx: GeneratorContext, source: Source, rule: string): fc.Arbitrary<InvalidCreate> | undefined {
  return changed(ctx, withSource(ctx, (s) => s === source), (body) =>
    fc.constantFrom(null, undefined).map((value) => {
      const revision = body.source_revision_config as Json;
      if (value === undefined) delete revision.graph_config_path;
      else revision.graph_config_path = null;
      return { body, why: `graph_config_path is required for ${source} and is not given (left out, or null)` };
    }), rule);
}

function graphGiven(ctx: GeneratorContext, source: Source, rule: string): fc.Arbitrary<InvalidCreate> | undefined {
  return changed(ctx, withSource(ctx, (s) => s === source), (body) =>
    fc.constantFrom(ctx.fixtures.gitforge.graphConfigPath, 'graph.json').map((path) => ({
      body: setIn(body, ['source_revision_config', 'graph_config_path'], path),
      why: `graph_config_path must be null for ${source}`,
    })), rule);
}

function cpuOutOfBounds(ctx: GeneratorContext, fields: BoundedCpuField[], rule: string): fc.Arbitrary<InvalidCreate> | undefined {
  const values = cpuOutOf(fields);
  return changed(ctx, withSource(ctx, (s) => s === 'external_container'), (body) =>
    values.map(([field, value]) => ({ body: setIn(body, ['source_config', 'resource_spec'], { [field]: value }), why: `${field} is out of bounds whatever the rounding` })), rule);
}

/** Invalid bodies breaking one of `rules` (all rules when omitted) that the context can express. */
export function invalidCreate(ctx: GeneratorContext, rules: string[] = Object.keys(INVALID_CREATES)): fc.Arbitrary<InvalidCreate> {
  const makers = rules.map((rule) => {
    const maker = INVALID_CREATES[rule];
    if (!maker) throw new Error(`No invalid create generator for ${rule}; known: ${Object.keys(INVALID_CREATES).join(', ')}.`);
    return maker(ctx);
  });
  const available = makers.filter((m): m is fc.Arbitrary<InvalidCreate> => m !== undefined);
  if (available.length === 0) throw new Error(`The target's sources (${ctx.sources.join(', ')}) cannot express ${rules.join(', ')}.`);
  return fc.oneof(...available);
}

/** The rules of INVALID_CREATES the context can express. */
export function expressibleRules(ctx: GeneratorContext, rules: string[] = Object.keys(INVALID_CREATES)): string[] {
  return rules.filter((rule) => INVALID_CREATES[rule]?.(ctx) !== undefined);
}
