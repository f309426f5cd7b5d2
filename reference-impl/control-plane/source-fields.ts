// Which fields apply to which source (spec 2.2 and 2.3, "Only for ..." rules), and which are
// immutable. README.md explains the readings where the spec leaves room.
import type { Source, SourceConfig, SourceRevisionConfig } from './api-types.ts';

/** Sources built from code: they need a graph configuration file. */
export const BUILDABLE_SOURCES: readonly Source[] = ['gitforge', 'internal_source'];
const CONTAINER_SOURCES: readonly Source[] = ['external_container', 'internal_container'];

/** Sources each source_config field may be set for (custom_url: see `customUrlRule`). */
export const SOURCE_CONFIG_FIELDS: Record<Exclude<keyof SourceConfig, 'custom_url'>, readonly Source[]> = {
  integration_id: ['gitforge'],
  repo_url: ['gitforge'],
  deployment_type: ['gitforge'],
  build_on_push: ['gitforge'],
  resource_spec: ['external_container'],
  listener_id: ['external_container'],
  listener_config: ['external_container'],
  // "Only for JS deployments": the server cannot know the language, so: sources it builds.
  install_command: BUILDABLE_SOURCES,
  build_command: BUILDABLE_SOURCES,
};

/** `custom_url` is settable for external_container, set by the platform (read-only) for gitforge. */
export function customUrlRule(source: Source): 'settable' | 'read-only' | 'not-applicable' {
  if (source === 'external_container') return 'settable';
  return source === 'gitforge' ? 'read-only' : 'not-applicable';
}

/** Sources each request field of source_revision_config may be set for. */
export const REVISION_CONFIG_FIELDS: Record<Exclude<keyof SourceRevisionConfig, 'repo_commit_sha'>, readonly Source[]> = {
  repo_ref: ['gitforge'],
  graph_config_path: BUILDABLE_SOURCES,
  image_uri: CONTAINER_SOURCES,
  source_tarball_path: ['internal_source'],
};

export const REVISION_CONFIG_KEYS = Object.keys(REVISION_CONFIG_FIELDS) as (keyof typeof REVISION_CONFIG_FIELDS)[];
export const SOURCE_CONFIG_KEYS = [...Object.keys(SOURCE_CONFIG_FIELDS), 'custom_url'] as (keyof SourceConfig)[];

/** source_config fields fixed at creation (spec 2.2); `listener_config.cluster_namespace` too. */
export const IMMUTABLE_SOURCE_CONFIG_FIELDS = ['integration_id', 'repo_url', 'deployment_type', 'listener_id'] as const;

export const isTagRef = (ref: string | null | undefined): boolean => typeof ref === 'string' && ref.startsWith('refs/tags/');

export const sourceList = (sources: readonly Source[]) => sources.join(', ');
