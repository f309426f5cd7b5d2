// Cross-field rules of deployments (spec 2.1-2.4). Each refusal is a 400 `{detail}` naming the
// field, what was expected and what to do.
import { badRequest } from '../http-errors.ts';
import type { ControlPlaneMode } from '../options.ts';
import type { Source, SourceConfig, SourceRevisionConfig } from './api-types.ts';
import type { FaultCheck } from './faults.ts';
import {
  BUILDABLE_SOURCES,
  customUrlRule,
  IMMUTABLE_SOURCE_CONFIG_FIELDS,
  isTagRef,
  REVISION_CONFIG_FIELDS,
  REVISION_CONFIG_KEYS,
  SOURCE_CONFIG_FIELDS,
  sourceList,
} from './source-fields.ts';

const present = (value: unknown) => value !== undefined && value !== null;

/** gitforge is hosted only; external_container is self-hosted only (spec 2.1). */
export function assertSourceAllowed(mode: ControlPlaneMode, source: Source, field: string): void {
  if (mode === 'hosted' && source === 'external_container') {
    throw badRequest(`${field} "external_container" is available on self-hosted installations only; this control plane is hosted. Use gitforge, internal_container or internal_source.`);
  }
  if (mode === 'self-hosted' && source === 'gitforge') {
    throw badRequest(`${field} "gitforge" is available on the hosted platform only; this control plane is self-hosted. Use external_container, internal_container or internal_source.`);
  }
}

function notApplicable(field: string, allowed: readonly Source[], source: Source, subject: string): Error {
  return badRequest(
    `${field} applies only to ${sourceList(allowed)} ${subject}; this one's source is ${source}. Omit the field or send null.`,
  );
}

/**
 * Fields of `config` set (non-null) must apply to `source`. `custom_url` for gitforge is read-only:
 * refused unless it repeats `current` (on PATCH).
 */
export function assertSourceConfigApplies(source: Source, config: SourceConfig, current?: SourceConfig): void {
  for (const [field, allowed] of Object.entries(SOURCE_CONFIG_FIELDS)) {
    if (present(config[field as keyof SourceConfig]) && !allowed.includes(source)) {
      throw notApplicable(`source_config.${field}`, allowed, source, 'deployments');
    }
  }
  if (!present(config.custom_url)) return;
  const rule = customUrlRule(source);
  if (rule === 'not-applicable') throw notApplicable('source_config.custom_url', ['external_container'], source, 'deployments');
  if (rule === 'read-only' && config.custom_url !== current?.custom_url) {
    throw badRequest('source_config.custom_url is set by the platform for gitforge deployments and is read-only. Omit the field or send null.');
  }
}

/** A PATCH may repeat an immutable field's value but not change it (spec 2.2). */
export function assertImmutablesUnchanged(current: SourceConfig, patch: SourceConfig): void {
  for (const field of IMMUTABLE_SOURCE_CONFIG_FIELDS) {
    const requested = patch[field];
    if (present(requested) && requested !== current[field]) {
      throw badRequest(
        `source_config.${field} is immutable and cannot change after creation; the request sends a different value. Omit it, send null, or repeat the current value.`,
      );
    }
  }
  const namespace = patch.listener_config?.cluster_namespace;
  if (present(namespace) && namespace !== (current.listener_config?.cluster_namespace ?? null)) {
    throw badRequest(
      'source_config.listener_config.cluster_namespace is immutable and cannot change after creation; the request sends a different value. Omit it, send null, or repeat the current value.',
    );
  }
}

/** Request fields of source_revision_config set (non-null) must apply to the revision's source. */
export function assertRevisionConfigApplies(source: Source, config: SourceRevisionConfig): void {
  for (const field of REVISION_CONFIG_KEYS) {
    const allowed = REVISION_CONFIG_FIELDS[field];
    if (present(config[field]) && !allowed.includes(source)) {
      throw notApplicable(`source_revision_config.${field}`, allowed, source, 'revisions');
    }
  }
}

/** A tag ref (`refs/tags/...`) requires build_on_push false (spec 2.2, 2.3). */
export function assertTagNotBuiltOnPush(repoRef: string | null | undefined, buildOnPush: boolean | null | undefined, faults: FaultCheck): void {
  // FAULT cp.tag-build-on-push-accepted: the rule is skipped.
  if (faults('cp.tag-build-on-push-accepted')) return;
  if (isTagRef(repoRef) && buildOnPush === true) {
    throw badRequest(
      'source_config.build_on_push cannot be true while source_revision_config.repo_ref is a tag (starts with "refs/tags/"): a tag never receives pushes. Set build_on_push to false or use a branch name.',
    );
  }
}

/** Buildable sources need a graph configuration file (spec 2.3). */
export function assertGraphConfigPath(source: Source, path: string | null | undefined, faults: FaultCheck): void {
  // FAULT cp.graph-config-path-optional: a buildable revision without graph_config_path is accepted.
  if (BUILDABLE_SOURCES.includes(source) && !present(path) && !faults('cp.graph-config-path-optional')) {
    throw badRequest(
      `source_revision_config.graph_config_path is required for ${source} sources (path of the graph configuration file, for example "graph.json"); none was sent.`,
    );
  }
}
