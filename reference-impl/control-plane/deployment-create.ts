// POST /v2/deployments: the rules a new deployment must satisfy, and the deployment with its
// first revision (spec 3: creating a deployment creates its first revision).
import { randomUUID } from 'node:crypto';
import { badRequest } from '../http-errors.ts';
import type { ControlPlaneMode } from '../options.ts';
import type { DeploymentCreateRequest } from './api-types.ts';
import {
  assertGraphConfigPath,
  assertRevisionConfigApplies,
  assertSourceAllowed,
  assertSourceConfigApplies,
  assertTagNotBuiltOnPush,
} from './deployment-rules.ts';
import { fullSourceConfig, platformUrl, revisionConfigFor } from './deployment-shapes.ts';
import type { FaultCheck } from './faults.ts';
import type { Deployment, StoredRevision } from './records.ts';
import { normalizeResourceSpec } from './resource-spec.ts';
import { startRevision } from './revision-lifecycle.ts';

export interface ChangeContext {
  mode: ControlPlaneMode;
  faults: FaultCheck;
  phaseMs: number;
  /** Refuse a revision-creating PATCH while the latest revision is in progress (platform-like busy-deployments). */
  refuseWhileBusy: boolean;
  /** Epoch milliseconds; read under the deployment's lock so revisions of one deployment are ordered. */
  clock: () => number;
}

export function planCreate(
  tenantId: string,
  body: DeploymentCreateRequest,
  c: ChangeContext,
): { deployment: Deployment; firstRevision: StoredRevision } {
  const { source } = body;
  assertSourceAllowed(c.mode, source, 'source');
  assertSourceConfigApplies(source, body.source_config);
  assertRevisionConfigApplies(source, body.source_revision_config);
  if (body.source_revision_config.source_tarball_path != null && !c.faults('cp.arbitrary-tarball-accepted')) {
    // FAULT cp.arbitrary-tarball-accepted skips this: no upload can exist before the deployment does.
    throw badRequest(
      'source_revision_config.source_tarball_path must be an object path returned by POST /v2/deployments/{deployment_id}/upload-url for this deployment, and a deployment being created has none yet. Create it without the path, upload the tarball, then PATCH with the returned object_path.',
    );
  }
  assertGraphConfigPath(source, body.source_revision_config.graph_config_path, c.faults);
  assertTagNotBuiltOnPush(body.source_revision_config.repo_ref, body.source_config.build_on_push, c.faults);
  if (body.secret_references != null && source !== 'external_container') {
    throw badRequest(`secret_references apply only to external_container deployments; this one's source is ${source}. Omit the field or send null.`);
  }
  const resourceSpec = body.source_config.resource_spec
    ? normalizeResourceSpec(body.source_config.resource_spec, ['body', 'source_config', 'resource_spec'], c.faults)
    : null;

  const id = randomUUID();
  const now = c.clock();
  const at = new Date(now).toISOString();
  const firstRevision = startRevision({
    id: randomUUID(),
    deploymentId: id,
    seq: 1,
    source,
    config: revisionConfigFor(source, body.source_revision_config),
    tarballMissing: false,
    now,
    phaseMs: c.phaseMs,
  });
  const sourceConfig = fullSourceConfig({
    ...body.source_config,
    resource_spec: resourceSpec,
    custom_url: source === 'gitforge' ? platformUrl(body.name, id) : body.source_config.custom_url,
  });
  const deployment: Deployment = {
    id,
    tenant_id: tenantId,
    name: body.name,
    source,
    source_config: sourceConfig,
    source_revision_config: firstRevision.revision.source_revision_config,
    secrets: body.secrets.map(({ name, value }) => ({ name, value })),
    secret_references: body.secret_references?.map(({ name, secret_name, secret_key }) => ({ name, secret_name, secret_key })) ?? null,
    created_at: at,
    updated_at: at,
    status: 'AWAITING_DATABASE',
    latest_revision_id: firstRevision.revision.id,
    active_revision_id: null,
    image_version: body.image_version ?? null,
  };
  return { deployment, firstRevision };
}
