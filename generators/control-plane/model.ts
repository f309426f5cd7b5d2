// The pure model of deployments and their revisions (sections 2.1, 2.3, 3): creating makes one
// revision, an accepted PATCH adds one revision when it supplies a trigger and none otherwise, a
// refused PATCH changes nothing, delete removes the deployment. The model knows the revision
// values the request that created the latest revision set; what a server carries over from
// earlier revisions is not specified, so it is not modelled.
import type { Source } from '../../schemas/index.ts';
import { expectedRevisionDelta, type DeploymentView } from './classify.ts';
import { isSet, REVISION_MEMBERS } from './source-rules.ts';
import { isObject } from '../../schemas/is-object.ts';

type Json = Record<string, unknown>;

export interface ModelDeployment {
  /** Index in creation order; the server's ids are kept by whoever talks to the server. */
  slot: number;
  view: DeploymentView;
  /** How many revisions the deployment has. */
  revisions: number;
  /** source_revision_config members set by the request that created the latest revision. */
  latestSet: Json;
  deleted: boolean;
  /**
   * Its newest revision may still be in progress: no PATCH was sent to it since the step that made
   * that revision. Where the target refuses a PATCH while a revision is in progress, the next
   * PATCH to it first waits for that revision to end (commands.ts counts those waits).
   */
  fresh: boolean;
}


/** The non-null revision members of a create or PATCH body. */
export function revisionMembersSet(body: Json): Json {
  const config = body.source_revision_config;
  if (!isObject(config)) return {};
  return Object.fromEntries(REVISION_MEMBERS.filter((m) => isSet(config[m])).map((m) => [m, config[m]]));
}

/** Non-null members of `patch` laid over `current`, one level deep. */
function overlay(current: Json, patch: unknown): Json {
  if (!isObject(patch)) return current;
  return { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => isSet(v))) };
}

export class ControlPlaneModel {
  readonly deployments: ModelDeployment[] = [];
  /** PATCHes sent to a `fresh` deployment so far: on a target that refuses a PATCH while busy, revision waits one after another. */
  waits = 0;

  live(): ModelDeployment[] {
    return this.deployments.filter((d) => !d.deleted);
  }

  deleted(): ModelDeployment[] {
    return this.deployments.filter((d) => d.deleted);
  }

  /** The live deployment a raw pick designates (picks stay valid as the set changes). */
  pick(raw: number): ModelDeployment | undefined {
    const live = this.live();
    return live.length === 0 ? undefined : live[raw % live.length];
  }

  pickDeleted(raw: number): ModelDeployment | undefined {
    const gone = this.deleted();
    return gone.length === 0 ? undefined : gone[raw % gone.length];
  }

  /** A created deployment: `name` is the name the server was sent. */
  create(name: string, body: { source: Source; source_config?: unknown; source_revision_config?: unknown }): ModelDeployment {
    const deployment: ModelDeployment = {
      slot: this.deployments.length,
      view: {
        name,
        source: body.source,
        source_config: overlay({}, body.source_config),
        source_revision_config: overlay({}, body.source_revision_config),
      },
      revisions: 1,
      latestSet: revisionMembersSet(body as Json),
      deleted: false,
      fresh: true,
    };
    this.deployments.push(deployment);
    return deployment;
  }

  /** A PATCH is sent to the deployment (accepted or not): where it had a revision in progress, the PATCH waited for it. */
  sendingPatch(deployment: ModelDeployment): void {
    if (deployment.fresh) this.waits += 1;
    deployment.fresh = false;
  }

  /** An accepted PATCH: returns how many revisions it added (0 or 1). */
  patch(deployment: ModelDeployment, patch: Json): 0 | 1 {
    const delta = expectedRevisionDelta(patch, deployment.view);
    deployment.revisions += delta;
    if (delta === 1) Object.assign(deployment, { latestSet: revisionMembersSet(patch), fresh: true });
    const { listener_config: _fixed, resource_spec: spec, ...config } = isObject(patch.source_config) ? patch.source_config : {};
    deployment.view = {
      ...deployment.view,
      // Immutable fields cannot change; a non-null resource_spec replaces the old one whole.
      source_config: overlay(deployment.view.source_config, { ...withoutImmutables(config), resource_spec: spec }),
      source_revision_config: overlay(deployment.view.source_revision_config, patch.source_revision_config),
    };
    return delta;
  }

  delete(deployment: ModelDeployment): void {
    deployment.deleted = true;
  }
}

function withoutImmutables(config: Json): Json {
  const { integration_id: _i, repo_url: _r, deployment_type: _d, listener_id: _l, ...rest } = config;
  return rest;
}
