// `many-deployments`: the first tenant already holds many deployments before any client acts, as a
// real workspace does: created over the past days, each READY with one DEPLOYED revision. A client
// that expects an empty workspace, or reads one page as all there is, stumbles on them.
import type { DeploymentCreateRequest } from '../control-plane/api-types.ts';
import { planCreate, type ChangeContext } from '../control-plane/deployment-create.ts';
import type { ControlPlaneStore } from '../control-plane/store.ts';
import { PLATFORM_DEFAULTS } from './behaviours.ts';

const HOUR_MS = 3_600_000;

/** Names of the deployments already there: no run of the harness makes such a name. */
export const existingName = (index: number) => `existing-agent-${String(index + 1).padStart(3, '0')}`;

export async function seedExistingDeployments(store: ControlPlaneStore, tenantId: string, c: ChangeContext, now = Date.now()): Promise<void> {
  for (let i = 0; i < PLATFORM_DEFAULTS.existingDeployments; i++) {
    const body: DeploymentCreateRequest = {
      name: existingName(i),
      source: 'internal_container',
      source_config: {},
      source_revision_config: { image_uri: `registry.invalid/team/agent-${i + 1}:v1` },
      secrets: [],
    };
    const { deployment, firstRevision } = planCreate(tenantId, body, c);
    // Older than anything a client creates, one hour apart.
    const at = new Date(now - (PLATFORM_DEFAULTS.existingDeployments - i) * HOUR_MS).toISOString();
    await store.createDeployment(
      { ...deployment, created_at: at, updated_at: at, status: 'READY', active_revision_id: firstRevision.revision.id },
      { ...firstRevision, nextTransitionAt: null, revision: { ...firstRevision.revision, status: 'DEPLOYED', created_at: at, updated_at: at } },
    );
  }
}
