// Control-plane types in their wire shapes (spec section 2).
export type Source = 'gitforge' | 'external_container' | 'internal_container' | 'internal_source';
export type DeploymentStatus = 'AWAITING_DATABASE' | 'READY' | 'UNUSED' | 'AWAITING_DELETE' | 'UNKNOWN';

export interface Secret {
  name: string;
  value: string;
}

export interface SecretReference {
  name: string;
  secret_name: string;
  secret_key: string;
}

export type ResourceSpec = Record<string, unknown>;

export interface SourceConfig {
  integration_id?: string | null;
  repo_url?: string | null;
  deployment_type?: 'dev_free' | 'dev' | 'prod' | null;
  build_on_push?: boolean | null;
  custom_url?: string | null;
  resource_spec?: ResourceSpec | null;
  listener_id?: string | null;
  listener_config?: { cluster_namespace?: string | null } | null;
  install_command?: string | null;
  build_command?: string | null;
}

export interface SourceRevisionConfig {
  repo_ref?: string | null;
  graph_config_path?: string | null;
  image_uri?: string | null;
  source_tarball_path?: string | null;
  repo_commit_sha?: string | null;
}

export interface Deployment {
  id: string;
  tenant_id: string;
  name: string;
  source: Source;
  source_config: SourceConfig;
  source_revision_config: SourceRevisionConfig;
  secrets: Secret[];
  secret_references?: SecretReference[] | null;
  created_at: string;
  updated_at: string;
  status: DeploymentStatus;
  latest_revision_id: string | null;
  active_revision_id: string | null;
  image_version?: string | null;
}

export interface Revision {
  id: string;
  created_at: string;
  updated_at: string;
  status: string;
  source: Source;
  source_revision_config: SourceRevisionConfig;
}

export interface DeploymentCreateRequest {
  name: string;
  source: Source;
  source_config: SourceConfig;
  source_revision_config: Omit<SourceRevisionConfig, 'repo_commit_sha'>;
  secrets: Secret[];
  secret_references?: SecretReference[] | null;
  image_version?: string | null;
}

export interface DeploymentPatchRequest {
  revision_source?: Exclude<Source, 'external_container'> | null;
  source_config?: SourceConfig | null;
  source_revision_config?: Omit<SourceRevisionConfig, 'repo_commit_sha'> | null;
  secrets?: Secret[] | null;
  secret_references?: SecretReference[] | null;
}
