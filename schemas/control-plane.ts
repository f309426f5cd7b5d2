// Control plane types (spec 2.1-2.6, 4.1), request and response variants. Response schemas allow
// extra properties and require only what the spec requires; request schemas leave
// additionalProperties open too (the platform ignores unknown fields) and refuse wrong types.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { cpuBounds } from './resource-spec-rules.ts';
import { DateTime, FreeObject, named, Nullable, OptionalNullable, refTo, StringEnum, StringMap, Uuid } from './json-types.ts';

export const SOURCES = ['gitforge', 'external_container', 'internal_container', 'internal_source'] as const;
export const Source = StringEnum(SOURCES);
export type Source = Static<typeof Source>;

/** Sources a PATCH may pick for one revision (`revision_source`): not external_container. */
export const REVISION_SOURCES = ['gitforge', 'internal_container', 'internal_source'] as const;

export const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod'] as const;

export const DEPLOYMENT_STATUSES = ['AWAITING_DATABASE', 'READY', 'UNUSED', 'AWAITING_DELETE', 'UNKNOWN'] as const;
export const DeploymentStatus = StringEnum(DEPLOYMENT_STATUSES);
export type DeploymentStatus = Static<typeof DeploymentStatus>;

const DNS_LABEL = { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 } as const;
const C_IDENTIFIER = { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } as const;

// 2.5 nested types (one variant each: requests and responses share them).

export const Secret = Type.Object(
  { name: Type.String(), value: Type.String() },
  named('Secret', 'Exposed to the deployment as an environment variable.'),
);
export type Secret = Static<typeof Secret>;

export const SecretReference = Type.Object(
  {
    name: Type.String({ description: 'Environment variable to fill.' }),
    secret_name: Type.String({ description: 'Existing cluster secret in the deployment namespace.' }),
    secret_key: Type.String({ description: 'Key inside that secret.' }),
  },
  named('SecretReference'),
);
export type SecretReference = Static<typeof SecretReference>;

export const LocalObjectReference = Type.Object({ name: Type.String() }, named('LocalObjectReference'));
export type LocalObjectReference = Static<typeof LocalObjectReference>;

export const Volume = Type.Object(
  {
    name: Type.String({ ...DNS_LABEL, description: 'DNS label, unique in the pod.' }),
    configMap: OptionalNullable(FreeObject()),
    secret: OptionalNullable(FreeObject()),
    emptyDir: OptionalNullable(FreeObject()),
    persistentVolumeClaim: OptionalNullable(FreeObject()),
    nfs: OptionalNullable(FreeObject()),
    projected: OptionalNullable(FreeObject()),
    downwardAPI: OptionalNullable(FreeObject()),
    csi: OptionalNullable(FreeObject()),
  },
  named('Volume'),
);
export type Volume = Static<typeof Volume>;

export const VolumeMount = Type.Object(
  {
    name: Type.String({ description: 'Must match a Volume.' }),
    mountPath: Type.String(),
    subPath: OptionalNullable(Type.String()),
    mountPropagation: OptionalNullable(Type.String()),
    subPathExpr: OptionalNullable(Type.String()),
    readOnly: OptionalNullable(Type.Boolean()),
  },
  named('VolumeMount'),
);
export type VolumeMount = Static<typeof VolumeMount>;

export const EnvVar = Type.Object(
  {
    name: Type.String({ ...C_IDENTIFIER, description: 'C identifier.' }),
    value: OptionalNullable(Type.String({ default: '' })),
    valueFrom: OptionalNullable(FreeObject()),
  },
  {
    ...named('EnvVar'),
    not: {
      description: 'valueFrom cannot be used when value is non-empty',
      required: ['value', 'valueFrom'],
      properties: { value: { type: 'string', minLength: 1 }, valueFrom: { type: 'object' } },
    },
  },
);
export type EnvVar = Static<typeof EnvVar>;

export const ResourceRequirements = Type.Object(
  { limits: OptionalNullable(StringMap()), requests: OptionalNullable(StringMap()) },
  named('ResourceRequirements'),
);
export type ResourceRequirements = Static<typeof ResourceRequirements>;

export const Container = Type.Object(
  {
    name: Type.String({ ...DNS_LABEL, description: 'DNS label.' }),
    image: Type.String(),
    imagePullPolicy: Type.Optional(StringEnum(['Always', 'Never', 'IfNotPresent'])),
    command: Type.Optional(Type.Array(Type.String())),
    args: Type.Optional(Type.Array(Type.String())),
    workingDir: Type.Optional(Type.String()),
    env: Type.Optional(Type.Array(refTo(EnvVar))),
    envFrom: Type.Optional(Type.Array(FreeObject())),
    resources: Type.Optional(refTo(ResourceRequirements)),
    volumeMounts: Type.Optional(Type.Array(refTo(VolumeMount))),
    securityContext: Type.Optional(FreeObject()),
    restartPolicy: Type.Optional(StringEnum(['Always', 'OnFailure'], { description: 'For sidecars.' })),
  },
  named('Container'),
);
export type Container = Static<typeof Container>;

// 2.4 ResourceSpec. The two variants differ only in their CPU fields: a request is checked after
// rounding (resource-spec-rules.ts), a stored and returned value is already within bounds.

const integer = () => OptionalNullable(Type.Integer());
const cores = (description: string) => OptionalNullable(Type.Number({ description }));
const deprecatedNumber = () => OptionalNullable(Type.Number({ deprecated: true, description: 'Do not use.' }));
const deprecatedInteger = () => OptionalNullable(Type.Integer({ deprecated: true, description: 'Do not use.' }));

function boundedCpu(field: keyof typeof cpuBounds, variant: 'request' | 'output') {
  const { minimum, maximum } = cpuBounds[field];
  if (variant === 'output') return OptionalNullable(Type.Number({ minimum, maximum, description: `Cores, ${minimum} to ${maximum}.` }));
  return OptionalNullable(
    Type.Number({
      exclusiveMinimum: 0,
      description: `Cores; rounded to one decimal place (half away from zero), then must be ${minimum} to ${maximum}.`,
    }),
  );
}

function resourceSpecFields(variant: 'request' | 'output') {
  return {
    min_scale: integer(),
    max_scale: integer(),
    cpu: boundedCpu('cpu', variant),
    cpu_limit: boundedCpu('cpu_limit', variant),
    memory_mb: integer(),
    memory_limit_mb: integer(),
    queue_min_scale: integer(),
    queue_max_scale: integer(),
    queue_cpu: boundedCpu('queue_cpu', variant),
    queue_cpu_limit: boundedCpu('queue_cpu_limit', variant),
    queue_memory_mb: integer(),
    queue_memory_limit_mb: integer(),
    cache_cpu: boundedCpu('cache_cpu', variant),
    cache_cpu_limit: boundedCpu('cache_cpu_limit', variant),
    cache_memory_mb: integer(),
    cache_memory_limit_mb: integer(),
    db_cpu: cores('SQL database CPU request, cores.'),
    db_cpu_limit: cores('Default: 2x db_cpu.'),
    db_memory_mb: integer(),
    db_memory_limit_mb: integer(),
    db_storage_gi: integer(),
    db_max_connections: integer(),
    labels: OptionalNullable(StringMap()),
    annotations: OptionalNullable(StringMap()),
    service_account_name: OptionalNullable(Type.String()),
    image_pull_secrets: OptionalNullable(Type.Array(refTo(LocalObjectReference))),
    volumes: OptionalNullable(Type.Array(refTo(Volume))),
    volume_mounts: OptionalNullable(Type.Array(refTo(VolumeMount))),
    init_containers: OptionalNullable(Type.Array(refTo(Container))),
    sidecars: OptionalNullable(Type.Array(refTo(Container))),
    orchestrator_cpu: deprecatedNumber(),
    orchestrator_cpu_limit: deprecatedNumber(),
    orchestrator_memory_mb: deprecatedInteger(),
    orchestrator_memory_limit_mb: deprecatedInteger(),
    orchestrator_min_scale: deprecatedInteger(),
    orchestrator_max_scale: deprecatedInteger(),
    executor_cpu: deprecatedNumber(),
    executor_cpu_limit: deprecatedNumber(),
    executor_memory_mb: deprecatedInteger(),
    executor_memory_limit_mb: deprecatedInteger(),
  };
}

export const ResourceSpec = Type.Object(
  resourceSpecFields('request'),
  named('ResourceSpec', 'Request variant. CPU in cores, memory in MB, storage in GiB. Only for external_container.'),
);
export type ResourceSpec = Static<typeof ResourceSpec>;

export const ResourceSpecOutput = Type.Object(resourceSpecFields('output'), named('ResourceSpecOutput', 'Response variant of ResourceSpec.'));
export type ResourceSpecOutput = Static<typeof ResourceSpecOutput>;

// 2.2 SourceConfig and 2.3 SourceRevisionConfig.

export const ListenerConfig = Type.Object(
  { cluster_namespace: OptionalNullable(Type.String({ description: 'Cluster namespace the deployment is deployed to. Immutable.' })) },
  named('ListenerConfig'),
);
export type ListenerConfig = Static<typeof ListenerConfig>;

function sourceConfigFields<R extends TSchema>(resourceSpec: R) {
  return {
    integration_id: OptionalNullable(Uuid({ description: 'Only for gitforge. Immutable.' })),
    repo_url: OptionalNullable(Type.String({ description: 'Only for gitforge. Immutable.' })),
    deployment_type: OptionalNullable(StringEnum(DEPLOYMENT_TYPES, { description: 'Only for gitforge. Immutable.' })),
    build_on_push: OptionalNullable(Type.Boolean({ description: 'Only for gitforge; not with a tag repo_ref.' })),
    custom_url: OptionalNullable(Type.String()),
    resource_spec: OptionalNullable(refTo(resourceSpec)),
    listener_id: OptionalNullable(Uuid({ description: 'Only for external_container. Immutable.' })),
    listener_config: OptionalNullable(refTo(ListenerConfig)),
    install_command: OptionalNullable(Type.String({ description: 'Only for JS deployments.' })),
    build_command: OptionalNullable(Type.String({ description: 'Only for JS deployments.' })),
  };
}

export const SourceConfigRequest = Type.Object(sourceConfigFields(ResourceSpec), named('SourceConfigRequest'));
export type SourceConfigRequest = Static<typeof SourceConfigRequest>;

export const SourceConfig = Type.Object(sourceConfigFields(ResourceSpecOutput), named('SourceConfig', 'Response variant.'));
export type SourceConfig = Static<typeof SourceConfig>;

const sourceRevisionConfigFields = {
  repo_ref: OptionalNullable(Type.String({ description: 'Branch name, or refs/tags/<tag>. Only for gitforge.' })),
  graph_config_path: OptionalNullable(Type.String({ description: 'Required on create for gitforge and internal_source.' })),
  image_uri: OptionalNullable(Type.String()),
  source_tarball_path: OptionalNullable(Type.String({ description: 'object_path from the upload-url endpoint. Only for internal_source.' })),
};

export const SourceRevisionConfigRequest = Type.Object(sourceRevisionConfigFields, named('SourceRevisionConfigRequest'));
export type SourceRevisionConfigRequest = Static<typeof SourceRevisionConfigRequest>;

export const SourceRevisionConfig = Type.Object(
  { ...sourceRevisionConfigFields, repo_commit_sha: OptionalNullable(Type.String({ readOnly: true })) },
  named('SourceRevisionConfig', 'Response variant.'),
);
export type SourceRevisionConfig = Static<typeof SourceRevisionConfig>;

// 2.1 Deployment and its requests.

export const Deployment = Type.Object(
  {
    name: Type.String(),
    source: Source,
    source_config: refTo(SourceConfig),
    source_revision_config: refTo(SourceRevisionConfig),
    secrets: Type.Array(refTo(Secret)),
    secret_references: OptionalNullable(Type.Array(refTo(SecretReference))),
    id: Uuid(),
    tenant_id: Uuid(),
    created_at: DateTime(),
    updated_at: DateTime(),
    status: DeploymentStatus,
    latest_revision_id: Nullable(Uuid()),
    active_revision_id: Nullable(Uuid()),
    image_version: OptionalNullable(Type.String()),
  },
  named('Deployment'),
);
export type Deployment = Static<typeof Deployment>;

export const DeploymentCreateRequest = Type.Object(
  {
    name: Type.String(),
    source: Source,
    source_config: refTo(SourceConfigRequest),
    source_revision_config: refTo(SourceRevisionConfigRequest),
    secrets: Type.Array(refTo(Secret)),
    secret_references: OptionalNullable(Type.Array(refTo(SecretReference), { description: 'external_container only.' })),
    image_version: OptionalNullable(Type.String()),
  },
  named('DeploymentCreateRequest'),
);
export type DeploymentCreateRequest = Static<typeof DeploymentCreateRequest>;

export const DeploymentPatchRequest = Type.Object(
  {
    revision_source: OptionalNullable(StringEnum(REVISION_SOURCES, { description: "Overrides the deployment's source for this revision." })),
    source_config: OptionalNullable(refTo(SourceConfigRequest)),
    source_revision_config: OptionalNullable(refTo(SourceRevisionConfigRequest)),
    secrets: OptionalNullable(Type.Array(refTo(Secret))),
    secret_references: OptionalNullable(Type.Array(refTo(SecretReference))),
  },
  named('DeploymentPatchRequest'),
);
export type DeploymentPatchRequest = Static<typeof DeploymentPatchRequest>;

/** `GET /v2/deployments` (shape from FIELD-NOTES; the spec does not show it). */
export const DeploymentList = Type.Object(
  { resources: Type.Array(refTo(Deployment)), offset: Type.Optional(Type.Integer()) },
  named('DeploymentList'),
);
export type DeploymentList = Static<typeof DeploymentList>;

// 2.6 Revision. The spec requires id and status; FIELD-NOTES list the rest.

export const Revision = Type.Object(
  {
    id: Uuid(),
    status: Type.String({ description: 'DEPLOYED when deployed; a status containing FAILED is a failure.' }),
    created_at: Type.Optional(DateTime()),
    updated_at: Type.Optional(DateTime()),
    source: Type.Optional(Source),
    source_revision_config: Type.Optional(refTo(SourceRevisionConfig)),
  },
  named('Revision'),
);
export type Revision = Static<typeof Revision>;

export const RevisionList = Type.Object(
  { resources: Type.Array(refTo(Revision), { description: 'Latest first.' }), offset: Type.Optional(Type.Integer()) },
  named('RevisionList'),
);
export type RevisionList = Static<typeof RevisionList>;

// Endpoints whose shapes only FIELD-NOTES give.

export const UploadUrlResponse = Type.Object(
  {
    upload_url: Type.String({ description: 'Signed URL to PUT the gzip tarball to.' }),
    object_path: Type.String({ description: 'Value for source_revision_config.source_tarball_path.' }),
  },
  named('UploadUrlResponse'),
);
export type UploadUrlResponse = Static<typeof UploadUrlResponse>;

export const Integration = Type.Object(
  {
    id: Uuid(),
    installation_id: Type.Optional(Type.Union([Type.Integer(), Type.String(), Type.Null()])),
    name: OptionalNullable(Type.String()),
  },
  named('Integration'),
);
export type Integration = Static<typeof Integration>;

export const IntegrationList = Type.Array(refTo(Integration), named('IntegrationList'));
export type IntegrationList = Static<typeof IntegrationList>;

export const Listener = Type.Object({ id: Type.Optional(Uuid()) }, named('Listener', 'Fields other than the id are not shown.'));
export type Listener = Static<typeof Listener>;

export const ListenerList = Type.Object(
  { resources: Type.Array(refTo(Listener)), offset: Type.Optional(Type.Integer()) },
  named('ListenerList'),
);
export type ListenerList = Static<typeof ListenerList>;

export const controlPlaneSchemas = {
  Deployment,
  DeploymentCreateRequest,
  DeploymentPatchRequest,
  DeploymentList,
  SourceConfig,
  SourceConfigRequest,
  SourceRevisionConfig,
  SourceRevisionConfigRequest,
  ResourceSpec,
  ResourceSpecOutput,
  ListenerConfig,
  Secret,
  SecretReference,
  LocalObjectReference,
  Volume,
  VolumeMount,
  Container,
  EnvVar,
  ResourceRequirements,
  Revision,
  RevisionList,
  UploadUrlResponse,
  Integration,
  IntegrationList,
  Listener,
  ListenerList,
};
