// The spec's "Only for ..." rules (2.1-2.4) as data: which source each settable field applies
// to, which fields are immutable, and which request members create a revision (section 3). Each
// rule carries the catalogue id a create that breaks it violates.
import type { Source } from '../../schemas/index.ts';

export const SOURCES: readonly Source[] = ['gitforge', 'external_container', 'internal_container', 'internal_source'];
/** Sources built from code: graph_config_path is required on create (2.3). */
export const BUILDABLE: readonly Source[] = ['gitforge', 'internal_source'];
export const CONTAINER: readonly Source[] = ['external_container', 'internal_container'];

export interface FieldRule {
  /** Where the field sits in a create body. */
  path: readonly string[];
  /** Sources it may be set (non-null) for. */
  sources: readonly Source[];
  /** Catalogue id a create breaks by setting it for another source. */
  onCreate: string;
}

/** Fields that may be set only for some sources. graph_config_path: see graphRule. */
export const FIELD_RULES: readonly FieldRule[] = [
  { path: ['source_config', 'integration_id'], sources: ['gitforge'], onCreate: 'CP-APPL-001' },
  { path: ['source_config', 'repo_url'], sources: ['gitforge'], onCreate: 'CP-APPL-001' },
  { path: ['source_config', 'deployment_type'], sources: ['gitforge'], onCreate: 'CP-APPL-001' },
  { path: ['source_config', 'build_on_push'], sources: ['gitforge'], onCreate: 'CP-APPL-001' },
  { path: ['source_config', 'listener_id'], sources: ['external_container'], onCreate: 'CP-APPL-002' },
  { path: ['source_config', 'listener_config'], sources: ['external_container'], onCreate: 'CP-APPL-002' },
  { path: ['source_config', 'custom_url'], sources: ['external_container'], onCreate: 'CP-APPL-003' },
  { path: ['source_config', 'resource_spec'], sources: ['external_container'], onCreate: 'CP-RES-001' },
  { path: ['secret_references'], sources: ['external_container'], onCreate: 'CP-APPL-004' },
  { path: ['source_revision_config', 'repo_ref'], sources: ['gitforge'], onCreate: 'CP-APPL-005' },
  { path: ['source_revision_config', 'source_tarball_path'], sources: ['internal_source'], onCreate: 'CP-APPL-006' },
];

/** graph_config_path: required on create for buildable sources, null for the others (2.3). */
export const GRAPH_RULE: Record<Source, { required: boolean; requirement: string }> = {
  gitforge: { required: true, requirement: 'CP-GRAPH-001' },
  internal_source: { required: true, requirement: 'CP-GRAPH-002' },
  external_container: { required: false, requirement: 'CP-GRAPH-003' },
  internal_container: { required: false, requirement: 'CP-GRAPH-004' },
};

/** Immutable fields (2.1, 2.2), with the sources they exist for and their rule. */
export const IMMUTABLE_FIELDS = [
  { field: 'name', path: ['name'], sources: SOURCES, requirement: 'CP-IMM-001' },
  { field: 'source', path: ['source'], sources: SOURCES, requirement: 'CP-IMM-002' },
  { field: 'integration_id', path: ['source_config', 'integration_id'], sources: ['gitforge'], requirement: 'CP-IMM-003' },
  { field: 'repo_url', path: ['source_config', 'repo_url'], sources: ['gitforge'], requirement: 'CP-IMM-004' },
  { field: 'deployment_type', path: ['source_config', 'deployment_type'], sources: ['gitforge'], requirement: 'CP-IMM-005' },
  { field: 'listener_id', path: ['source_config', 'listener_id'], sources: ['external_container'], requirement: 'CP-IMM-006' },
  {
    field: 'cluster_namespace',
    path: ['source_config', 'listener_config', 'cluster_namespace'],
    sources: ['external_container'],
    requirement: 'CP-IMM-007',
  },
] as const satisfies readonly { field: string; path: readonly string[]; sources: readonly Source[]; requirement: string }[];

/** source_revision_config members whose non-null value creates a revision (section 3). */
export const REVISION_MEMBERS = ['repo_ref', 'graph_config_path', 'image_uri', 'source_tarball_path'] as const;

/** The PATCH triggers of section 3 and the rule each row is. */
export const TRIGGERS = {
  repo_ref: 'CP-REV-002',
  graph_config_path: 'CP-REV-003',
  image_uri: 'CP-REV-004',
  source_tarball_path: 'CP-REV-005',
  secrets: 'CP-REV-006',
  resource_spec: 'CP-REV-007',
} as const;
export type Trigger = keyof typeof TRIGGERS;

/** Sources a trigger can be sent for (the field must apply to the deployment's source). */
export const TRIGGER_SOURCES: Record<Trigger, readonly Source[]> = {
  repo_ref: ['gitforge'],
  graph_config_path: BUILDABLE,
  image_uri: CONTAINER,
  source_tarball_path: ['internal_source'],
  secrets: SOURCES,
  resource_spec: ['external_container'],
};

export const isTagRef = (ref: unknown): boolean => typeof ref === 'string' && ref.startsWith('refs/tags/');

/** The value at `path` inside a JSON value, or undefined. */
export function valueAt(value: unknown, path: readonly string[]): unknown {
  let at: unknown = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** "Given" in the spec's sense: present and not null. */
export const isSet = (value: unknown): boolean => value !== undefined && value !== null;
