// Listing queries of deployments and revisions (field notes: limit 1..100, default 20, offset >= 0,
// filters, `{resources, offset}`). Filtering runs here, not in a backend, so both backends answer
// alike.
import { DEPLOYMENT_STATUSES, DEPLOYMENT_TYPES } from '../../schemas/index.ts';
import type { Deployment, StoredRevision } from './records.ts';
import { QueryReader } from './request-params.ts';
import { REVISION_STATUSES } from './revision-lifecycle.ts';

export interface Page {
  limit: number;
  /** Echoed in the response as `offset`. */
  offset: number;
}

function readPage(reader: QueryReader): Page {
  return {
    limit: reader.integer('limit', 20, { min: 1, max: 100 }),
    offset: reader.integer('offset', 0, { min: 0 }),
  };
}

/** `limit` and `offset` alone, for listings without filters. */
export function readPageQuery(query: unknown): Page {
  const reader = new QueryReader(query);
  const page = readPage(reader);
  reader.done();
  return page;
}

export interface DeploymentQuery extends Page {
  nameContains: string | undefined;
  statuses: string[] | undefined;
  deploymentIds: string[] | undefined;
  imageVersion: string | undefined;
  deploymentTypes: string[] | undefined;
}

export function readDeploymentQuery(query: unknown): DeploymentQuery {
  const reader = new QueryReader(query);
  const parsed: DeploymentQuery = {
    ...readPage(reader),
    nameContains: reader.text('name_contains'),
    statuses: reader.enumList('status', DEPLOYMENT_STATUSES),
    deploymentIds: reader.uuidList('deployment_ids'),
    imageVersion: reader.text('image_version'),
    deploymentTypes: reader.enumList('deployment_type', DEPLOYMENT_TYPES),
  };
  reader.done();
  return parsed;
}

/** Timestamps of one format and lower-case uuids sort by code point; far cheaper than localeCompare. */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Newest first (by `created_at`, then id, for a stable order across pages). */
export function selectDeployments(all: Deployment[], query: DeploymentQuery): Deployment[] {
  const needle = query.nameContains?.toLowerCase();
  return all
    .filter((d) => needle === undefined || d.name.toLowerCase().includes(needle))
    .filter((d) => !query.statuses || query.statuses.length === 0 || query.statuses.includes(d.status))
    .filter((d) => !query.deploymentIds || query.deploymentIds.length === 0 || query.deploymentIds.includes(d.id))
    .filter((d) => query.imageVersion === undefined || d.image_version === query.imageVersion)
    .filter((d) => !query.deploymentTypes || query.deploymentTypes.length === 0 || query.deploymentTypes.includes(d.source_config.deployment_type ?? ''))
    .sort((a, b) => byCodePoint(b.created_at, a.created_at) || byCodePoint(b.id, a.id))
    .slice(query.offset, query.offset + query.limit);
}

export interface RevisionQuery extends Page {
  statuses: string[] | undefined;
}

export function readRevisionQuery(query: unknown): RevisionQuery {
  const reader = new QueryReader(query);
  const parsed: RevisionQuery = { ...readPage(reader), statuses: reader.enumList('status', REVISION_STATUSES) };
  reader.done();
  return parsed;
}

/** `revisions` come newest first from the store. */
export function selectRevisions(revisions: StoredRevision[], query: RevisionQuery): StoredRevision[] {
  return revisions
    .filter((r) => !query.statuses || query.statuses.length === 0 || query.statuses.includes(r.revision.status))
    .slice(query.offset, query.offset + query.limit);
}
