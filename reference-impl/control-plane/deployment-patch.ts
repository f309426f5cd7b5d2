// PATCH /v2/deployments/{id}: what a patch may change, and whether it creates a revision (spec 3,
// revision creation rules). A null or omitted field means "leave as is"; a PATCH that supplies
// several revision triggers creates exactly one revision.
import { randomUUID } from 'node:crypto';
import { badRequest } from '../http-errors.ts';
import type { DeploymentPatchRequest, Source, SourceConfig, SourceRevisionConfig } from './api-types.ts';
import type { ChangeContext } from './deployment-create.ts';
import {
  assertGraphConfigPath,
  assertImmutablesUnchanged,
  assertRevisionConfigApplies,
  assertSourceAllowed,
  assertSourceConfigApplies,
  assertTagNotBuiltOnPush,
} from './deployment-rules.ts';
import { fullSourceConfig, revisionConfigFor } from './deployment-shapes.ts';
import type { Deployment, DeploymentChange, StoredRevision, UploadGrant } from './records.ts';
import { normalizeResourceSpec } from './resource-spec.ts';
import { startRevision } from './revision-lifecycle.ts';
import { REVISION_CONFIG_KEYS, SOURCE_CONFIG_KEYS } from './source-fields.ts';
import type { ChangePlan } from './store.ts';
import { assertNotDeleting } from '../platform-like/async-delete.ts';
import { assertNotBusy } from '../platform-like/busy-deployments.ts';

/** A PATCH body as received: the schema's fields, plus `name`/`source`, which it may not change. */
export type PatchBody = DeploymentPatchRequest & { name?: unknown; source?: unknown };

export interface PatchContext extends ChangeContext {
  /** The upload grant of the requested `source_tarball_path` for this deployment, if one exists. */
  tarballGrant: UploadGrant | undefined;
}

const present = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

/** Non-null members of a patch object among `keys` (a field the spec does not define is ignored). */
function setMembers<T extends object>(patch: T | null | undefined, keys: readonly (keyof T)[]): Partial<T> {
  return Object.fromEntries(
    Object.entries(patch ?? {}).filter(([key, value]) => keys.includes(key as keyof T) && present(value)),
  ) as Partial<T>;
}

function assertIdentityUnchanged(current: Deployment, body: PatchBody, c: ChangeContext): string {
  if (present(body.source) && body.source !== current.source) {
    throw badRequest('source is immutable and cannot change after creation. To build one revision from another source, send revision_source instead.');
  }
  if (!present(body.name) || body.name === current.name) return current.name;
  // FAULT cp.immutable-name-accepted: the new name is applied.
  if (c.faults('cp.immutable-name-accepted') && typeof body.name === 'string') return body.name;
  throw badRequest('name is immutable and cannot change after creation. Omit it, or create a new deployment with the new name.');
}

function assertTarballHandedOut(path: string | null | undefined, c: PatchContext): void {
  // FAULT cp.arbitrary-tarball-accepted: any object path is accepted.
  if (!present(path) || c.tarballGrant || c.faults('cp.arbitrary-tarball-accepted')) return;
  throw badRequest(
    'source_revision_config.source_tarball_path is not an object path this control plane handed out for this deployment. Call POST /v2/deployments/{deployment_id}/upload-url, PUT the tarball to upload_url, then send its object_path.',
  );
}

/**
 * The revision a new one starts from: the newest of the same source (so a revision built once
 * from another source does not erase, say, graph_config_path), else the newest.
 */
function baseRevision(source: Source, revisions: StoredRevision[]): StoredRevision | undefined {
  return revisions.find((r) => r.revision.source === source) ?? revisions[0];
}

/** The new revision's values: its base revision's, with the patch's non-null members applied. */
function revisionValues(source: Source, base: StoredRevision | undefined, patch: Partial<SourceRevisionConfig>): SourceRevisionConfig {
  const carried: SourceRevisionConfig = {};
  for (const key of REVISION_CONFIG_KEYS) carried[key] = base?.revision.source_revision_config[key] ?? null;
  return revisionConfigFor(source, { ...carried, ...patch });
}

export function planPatch(body: PatchBody, c: PatchContext): ChangePlan<Deployment> {
  return (current, revisions) => {
    assertNotDeleting(current);
    const name = assertIdentityUnchanged(current, body, c);
    if (present(body.revision_source)) assertSourceAllowed(c.mode, body.revision_source, 'revision_source');
    const revisionSource = body.revision_source ?? current.source;

    const configPatch = setMembers<SourceConfig>(body.source_config, SOURCE_CONFIG_KEYS);
    assertSourceConfigApplies(current.source, configPatch, current.source_config);
    assertImmutablesUnchanged(current.source_config, configPatch);
    // Its one field is immutable, so once checked a listener_config can change nothing.
    delete configPatch.listener_config;
    const revisionPatch = setMembers<SourceRevisionConfig>(body.source_revision_config, REVISION_CONFIG_KEYS);
    assertRevisionConfigApplies(revisionSource, revisionPatch);
    assertTarballHandedOut(revisionPatch.source_tarball_path, c);
    if (present(body.secret_references) && current.source !== 'external_container') {
      throw badRequest(`secret_references apply only to external_container deployments; this one's source is ${current.source}. Omit the field or send null.`);
    }
    if (configPatch.resource_spec) {
      // A non-null resource_spec replaces the stored one wholesale (spec 2.4).
      configPatch.resource_spec = normalizeResourceSpec(configPatch.resource_spec, ['body', 'source_config', 'resource_spec'], c.faults);
    }
    const sourceConfig = fullSourceConfig({ ...current.source_config, ...configPatch });

    // FAULT cp.no-revision-on-secrets: secrets are stored but create no revision.
    const secretsTrigger = present(body.secrets) && !c.faults('cp.no-revision-on-secrets');
    const createsRevision = Object.keys(revisionPatch).length > 0 || secretsTrigger || present(configPatch.resource_spec);

    const latest = revisions[0];
    let newRevision: StoredRevision | undefined;
    let revisionConfig = current.source_revision_config;
    const now = c.clock();
    if (createsRevision) {
      if (c.refuseWhileBusy) assertNotBusy(latest);
      const base = baseRevision(revisionSource, revisions);
      revisionConfig = revisionValues(revisionSource, base, revisionPatch);
      assertGraphConfigPath(revisionSource, revisionConfig.graph_config_path, c.faults);
      const tarballMissing = present(revisionPatch.source_tarball_path)
        ? c.tarballGrant?.uploaded === false
        : revisionConfig.source_tarball_path !== null && base?.tarballMissing === true;
      newRevision = startRevision({
        id: randomUUID(),
        deploymentId: current.id,
        seq: (latest?.seq ?? 0) + 1,
        source: revisionSource,
        config: revisionConfig,
        tarballMissing,
        now,
        phaseMs: c.phaseMs,
      });
    }
    assertTagNotBuiltOnPush(revisionConfig.repo_ref, sourceConfig.build_on_push, c.faults);

    const changed =
      newRevision !== undefined ||
      name !== current.name ||
      JSON.stringify(sourceConfig) !== JSON.stringify(current.source_config) ||
      present(body.secrets) ||
      present(body.secret_references);
    if (!changed) return { result: current };
    const deployment: Deployment = {
      ...current,
      name,
      source_config: sourceConfig,
      source_revision_config: revisionConfig,
      secrets: body.secrets?.map(({ name: secretName, value }) => ({ name: secretName, value })) ?? current.secrets,
      secret_references:
        body.secret_references?.map(({ name: refName, secret_name, secret_key }) => ({ name: refName, secret_name, secret_key })) ??
        current.secret_references ??
        null,
      latest_revision_id: newRevision?.revision.id ?? current.latest_revision_id,
      updated_at: new Date(now).toISOString(),
    };
    const change: DeploymentChange = newRevision ? { deployment, newRevision } : { deployment };
    return { change, result: deployment };
  };
}
