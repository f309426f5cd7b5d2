// The stored (and returned) shapes of nested deployment values: every field of SourceConfig and
// SourceRevisionConfig present, null when unset; fields a request may not carry dropped.
import { randomBytes } from 'node:crypto';
import type { Source, SourceConfig, SourceRevisionConfig } from './api-types.ts';
import { REVISION_CONFIG_FIELDS, REVISION_CONFIG_KEYS, SOURCE_CONFIG_KEYS } from './source-fields.ts';

export function fullSourceConfig(config: SourceConfig): SourceConfig {
  const full: Record<string, unknown> = {};
  for (const key of SOURCE_CONFIG_KEYS) full[key] = config[key] ?? null;
  const namespace = config.listener_config?.cluster_namespace;
  full.listener_config = config.listener_config ? { cluster_namespace: namespace ?? null } : null;
  return full as SourceConfig;
}

/**
 * A revision's values: the request fields that apply to `source` (others null) and, for gitforge,
 * the commit the platform resolved (here: a generated 40-hex SHA).
 */
export function revisionConfigFor(source: Source, requested: SourceRevisionConfig): SourceRevisionConfig {
  const config: Record<string, unknown> = {};
  for (const key of REVISION_CONFIG_KEYS) {
    config[key] = REVISION_CONFIG_FIELDS[key].includes(source) ? (requested[key] ?? null) : null;
  }
  config.repo_commit_sha = source === 'gitforge' ? randomBytes(20).toString('hex') : null;
  return config as SourceRevisionConfig;
}

/** gitforge deployments get their URL from the platform (spec 2.2 custom_url). */
export function platformUrl(name: string, deploymentId: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'deployment';
  return `https://${slug}-${deploymentId.slice(0, 8)}.reference.invalid`;
}
