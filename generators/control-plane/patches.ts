// PATCH bodies (PATCH /v2/deployments/{id}): each revision trigger of section 3 alone and
// combined, bodies that must create no revision, attempts to change each immutable field, and
// invalid bodies naming the rule they break. Generated for one source, since which fields apply
// depends on it.
import fc from 'fast-check';
import { matching } from '../matching.ts';
import type { DeploymentPatchRequest, Source } from '../../schemas/index.ts';
import { DEPLOYMENT_TYPES } from '../../schemas/index.ts';
import { BOUNDED_CPU_FIELDS, cpuOutOf } from './cpu.ts';
import type { GeneratorContext, GeneratorFixtures } from './context.ts';
import { validResourceSpec } from './resource-spec.ts';
import { IMMUTABLE_FIELDS, TRIGGER_SOURCES, TRIGGERS, type Trigger } from './source-rules.ts';
import { arbitraryTarballPath, exampleUrl, nonEmptySecrets, secretReferences, tagRef, uuid } from './values.ts';

export type PatchBody = DeploymentPatchRequest & Record<string, unknown>;

/** Triggers that can be generated without the upload flow (source_tarball_path needs it). */
export type GeneratedTrigger = Exclude<Trigger, 'source_tarball_path'>;

/** The triggers a deployment of `source` accepts, except source_tarball_path. */
export function triggersFor(source: Source): GeneratedTrigger[] {
  return (Object.keys(TRIGGERS) as Trigger[]).filter(
    (t): t is GeneratedTrigger => t !== 'source_tarball_path' && TRIGGER_SOURCES[t].includes(source),
  );
}

/** A PATCH with exactly the given trigger. Values repeat the fixtures: a revision is created even so. */
export function triggerPatch(ctx: GeneratorContext, trigger: GeneratedTrigger): fc.Arbitrary<PatchBody> {
  const fx = ctx.fixtures;
  switch (trigger) {
    case 'repo_ref':
      return fc.constant({ source_revision_config: { repo_ref: fx.gitforge.repoRef } });
    case 'graph_config_path':
      return fc.constant({ source_revision_config: { graph_config_path: fx.gitforge.graphConfigPath } });
    case 'image_uri':
      return fc.constant({ source_revision_config: { image_uri: fx.imageUri } });
    case 'secrets':
      return nonEmptySecrets.map((secrets) => ({ secrets }));
    case 'resource_spec':
      return validResourceSpec.map((resource_spec) => ({ source_config: { resource_spec } }));
  }
}

/**
 * A PATCH that changes a revision-relevant value of a deployment of `source` created from the
 * fixtures (baseCreate): its image_uri to fixtures.otherImageUri, or its repo_ref to
 * fixtures.gitforge.otherRepoRef; undefined when the fixtures hold no second value for the source.
 * A PATCH repeating the create's values creates a revision too, but a deployment that kept its
 * first revision's values would look right after it. `current`: the deployment's
 * source_revision_config now, when it may already hold the second value (a deployment shared by
 * tests, one of which PATCHed it): the change is then back to the first.
 */
export function changedValuePatch(fx: GeneratorFixtures, source: Source, current?: Record<string, unknown> | null): PatchBody | undefined {
  const change = (member: 'image_uri' | 'repo_ref', first: string, second: string): PatchBody => ({ source_revision_config: { [member]: current?.[member] === second ? first : second } });
  if ((source === 'internal_container' || source === 'external_container') && fx.otherImageUri && fx.otherImageUri !== fx.imageUri) {
    return change('image_uri', fx.imageUri, fx.otherImageUri);
  }
  if (source === 'gitforge' && fx.gitforge.otherRepoRef && fx.gitforge.otherRepoRef !== fx.gitforge.repoRef) {
    return change('repo_ref', fx.gitforge.repoRef, fx.gitforge.otherRepoRef);
  }
  return undefined;
}

/** Merges patch parts member by member (source_config and source_revision_config objects too). */
function mergePatches(parts: PatchBody[]): PatchBody {
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      const current = out[key];
      out[key] =
        current && typeof current === 'object' && !Array.isArray(current) && value && typeof value === 'object' && !Array.isArray(value)
          ? { ...current, ...value }
          : value;
    }
  }
  return out as PatchBody;
}

/** A PATCH with two or more triggers a deployment of `source` accepts. */
export function combinedTriggerPatch(ctx: GeneratorContext, source: Source): fc.Arbitrary<{ patch: PatchBody; triggers: GeneratedTrigger[] }> {
  const available = triggersFor(source);
  if (available.length < 2) throw new Error(`A ${source} deployment has fewer than two triggers (${available.join(', ')}).`);
  return fc
    .subarray(available, { minLength: 2 })
    .chain((triggers) => fc.tuple(...triggers.map((t) => triggerPatch(ctx, t))).map((parts) => ({ patch: mergePatches(parts), triggers })));
}

/**
 * PATCH bodies that must create no revision on a deployment of `source`: empty, null members,
 * source_revision_config with only null members, and source_config fields that apply to the
 * source other than resource_spec (build_on_push false for gitforge, custom_url for
 * external_container).
 */
export function nonTriggerPatch(source: Source): fc.Arbitrary<PatchBody> {
  const settable: fc.Arbitrary<Record<string, unknown>>[] = [fc.constant({})];
  if (source === 'gitforge') settable.push(fc.constant({ build_on_push: false }));
  if (source === 'external_container') settable.push(exampleUrl.map((custom_url) => ({ custom_url })));
  const nullRevision = fc.record(
    { repo_ref: fc.constant(null), graph_config_path: fc.constant(null), image_uri: fc.constant(null), source_tarball_path: fc.constant(null) },
    { requiredKeys: [] },
  );
  return fc
    .record(
      {
        source_config: fc.oneof(fc.constant(null), fc.oneof(...settable)),
        source_revision_config: fc.oneof(fc.constant(null), nullRevision),
        secrets: fc.constant(null),
        secret_references: fc.constant(null),
        revision_source: fc.constant(null),
      },
      { requiredKeys: [] },
    )
    .map((patch) => patch as PatchBody);
}

/** An attempt to change one immutable field of `current` (a deployment of its source). */
export interface ImmutableChange {
  patch: PatchBody;
  field: string;
  requirement: string;
  /** Where to read the field on a Deployment, to see it did not change. */
  path: readonly string[];
}

type Json = Record<string, unknown>;

// Built once (fast-check compiles a regular expression into an arbitrary in tens of
// milliseconds), not for each deployment whose immutable fields a property changes.
const shortSuffix = matching(/^[a-z0-9]{1,6}$/);
const namespaceName = matching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);

/** Values different from `current` for each immutable field that exists for `source`. */
export function immutableChange(ctx: GeneratorContext, source: Source, current: { name: string; source_config: Json }): fc.Arbitrary<ImmutableChange> {
  const cfg = current.source_config;
  const namespace = (cfg.listener_config as Json | null | undefined)?.cluster_namespace;
  const otherSource = (['gitforge', 'external_container', 'internal_container', 'internal_source'] as const).filter((s) => s !== source);
  const changes: Record<string, fc.Arbitrary<PatchBody>> = {
    name: shortSuffix.map((suffix) => ({ name: `${current.name}-x${suffix}` })),
    source: fc.constantFrom(...otherSource).map((s) => ({ source: s })),
    integration_id: uuid.filter((id) => id !== cfg.integration_id).map((integration_id) => ({ source_config: { integration_id } })),
    repo_url: exampleUrl.filter((url) => url !== cfg.repo_url).map((repo_url) => ({ source_config: { repo_url } })),
    deployment_type: fc.constantFrom(...DEPLOYMENT_TYPES.filter((t) => t !== cfg.deployment_type)).map((deployment_type) => ({ source_config: { deployment_type } })),
    listener_id: uuid.filter((id) => id !== cfg.listener_id).map((listener_id) => ({ source_config: { listener_id } })),
    cluster_namespace: namespaceName
      .filter((ns) => ns !== namespace)
      .map((cluster_namespace) => ({ source_config: { listener_config: { cluster_namespace } } })),
  };
  const applicable = IMMUTABLE_FIELDS.filter((f) => (f.sources as readonly Source[]).includes(source));
  return fc.constantFrom(...applicable).chain((f) => changes[f.field]!.map((patch) => ({ patch, field: f.field, requirement: f.requirement, path: f.path })));
}

/** An invalid PATCH, the rule it breaks and why. */
export interface InvalidPatch {
  patch: PatchBody;
  breaks: string;
  why: string;
}

/**
 * Invalid PATCH bodies for a deployment of `source` whose repo_ref (gitforge) is a branch and
 * build_on_push is `buildOnPush`.
 */
export function invalidPatch(ctx: GeneratorContext, source: Source, state: { buildOnPush?: boolean | null } = {}): fc.Arbitrary<InvalidPatch> {
  const cases: fc.Arbitrary<InvalidPatch>[] = [
    fc
      .constantFrom<[Json, string]>(
        [{ secrets: 'APC_X=1' }, 'secrets is not an array'],
        [{ secrets: [{ name: 'APC_ONLY_NAME' }] }, 'a secret has no value'],
        [{ source_config: 5 }, 'source_config is not an object'],
        [{ source_revision_config: 'main' }, 'source_revision_config is not an object'],
        [{ source_revision_config: { image_uri: 5 } }, 'image_uri is not a string'],
        [{ revision_source: 'ftp' }, 'revision_source is not one of its values'],
      )
      .map(([patch, why]) => ({ patch: patch as PatchBody, breaks: 'CP-ERR-003', why })),
  ];
  const notApplicable: [Json, string][] = [];
  if (source !== 'gitforge') {
    notApplicable.push([{ source_config: { build_on_push: true } }, 'build_on_push is only for gitforge']);
    notApplicable.push([{ source_revision_config: { repo_ref: 'main' } }, 'repo_ref is only for gitforge']);
  }
  if (source !== 'external_container') {
    notApplicable.push([{ source_config: { custom_url: 'https://apc.example.com' } }, 'custom_url is settable only for external_container']);
  }
  if (source !== 'internal_source') {
    notApplicable.push([{ source_revision_config: { source_tarball_path: 'apc/source.tar.gz' } }, 'source_tarball_path is only for internal_source']);
  }
  if (notApplicable.length > 0) cases.push(fc.constantFrom(...notApplicable).map(([patch, why]) => ({ patch: patch as PatchBody, breaks: 'CP-APPL-007', why })));
  if (source !== 'external_container') {
    cases.push(
      fc.oneof(
        secretReferences.map((refs) => ({ patch: { secret_references: refs } as PatchBody, breaks: 'CP-APPL-007', why: 'secret_references apply only to external_container' })),
        validResourceSpec
          .filter((spec) => Object.keys(spec).length > 0)
          .map((resource_spec) => ({ patch: { source_config: { resource_spec } } as PatchBody, breaks: 'CP-RES-008', why: 'resource_spec applies only to external_container' })),
      ),
    );
  }
  if (source === 'internal_source') {
    cases.push(arbitraryTarballPath.map((path) => ({ patch: { source_revision_config: { source_tarball_path: path } } as PatchBody, breaks: 'CP-TAR-002', why: 'source_tarball_path was not handed out by upload-url' })));
  }
  if (source === 'external_container') {
    cases.push(
      cpuOutOf(BOUNDED_CPU_FIELDS).map(([field, value]) => ({
        patch: { source_config: { resource_spec: { [field]: value } } } as PatchBody,
        breaks: 'CP-RES-006',
        why: `${field} is out of bounds whatever the rounding`,
      })),
    );
  }
  if (source === 'gitforge') {
    cases.push(
      state.buildOnPush === true
        ? tagRef.map((ref) => ({ patch: { source_revision_config: { repo_ref: ref } } as PatchBody, breaks: 'CP-TAG-003', why: 'repo_ref is a tag and build_on_push is true' }))
        : tagRef.map((ref) => ({
            patch: { source_config: { build_on_push: true }, source_revision_config: { repo_ref: ref } } as PatchBody,
            breaks: 'CP-TAG-003',
            why: 'repo_ref is a tag and build_on_push is set to true',
          })),
    );
  }
  return fc.oneof(...cases);
}
