// With no target URL, `apc certify` certifies the in-repo reference implementation: it starts
// it in this process with two keys (two tenants, for the scoping rules), fast revision phases,
// and a profile that offers every optional endpoint and fixture the reference has.
import { randomBytes, randomUUID } from 'node:crypto';
import type { ReferenceServer } from '../../reference-impl/index.ts';
import type { ControlPlaneMode, TargetProfile } from '../profile.ts';
import { defaultProfile, defaultSources, OPTIONAL_ENDPOINTS } from '../profile.ts';

export interface ReferenceTarget {
  server: ReferenceServer;
  apply(profile: TargetProfile): void;
}

/** Profile defaults for the reference, which answers in milliseconds; flags and APC_* still win. */
export function referenceProfileBase(): TargetProfile {
  const base = defaultProfile();
  base.timeouts = { requestMs: 10_000, streamMs: 10_000, deployMs: 30_000, statsMs: 15_000 };
  base.pollIntervalMs = 20;
  return base;
}

export async function startReferenceTarget(mode: ControlPlaneMode, faults: string[] = []): Promise<ReferenceTarget> {
  const grants = [0, 1].map(() => ({ key: `apc-ref-${randomBytes(18).toString('base64url')}`, tenants: [randomUUID()] }));
  // Loaded on demand: certifying a remote target never loads the reference implementation.
  const { startReference } = await import('../../reference-impl/index.ts');
  const server = await startReference({ mode, apiKeys: grants, phaseMs: 10, statsDelayMs: 300, faults });
  return {
    server,
    apply(profile) {
      profile.urls = {
        'control-plane': server.urls.controlPlane,
        'agent-server': server.urls.agentServer,
        'experiment-upload': server.urls.tracing,
      };
      profile.apiKey = grants[0]!.key;
      profile.tenantId = grants[0]!.tenants[0]!;
      profile.otherTenant = { apiKey: grants[1]!.key, tenantId: grants[1]!.tenants[0]! };
      profile.controlPlaneMode = mode;
      profile.sources = defaultSources(mode);
      profile.endpoints = [...OPTIONAL_ENDPOINTS].filter((e) => mode === 'self-hosted' || e !== 'listeners');
      profile.fixtures = {
        ...profile.fixtures,
        failingGraphId: 'fail',
        // The reference fails a build whose image URI contains `fail-build` (reference-impl/control-plane/README.md).
        failingImageUri: 'registry.invalid/acme/agent:fail-build',
        ...(mode === 'self-hosted' ? { clusterNamespace: 'agents' } : {}),
      };
    },
  };
}
