// The reference control plane started here with two known workspaces, certified by URL (through a
// proxy) with a profile like the one `apc certify` gives the reference it starts itself. The runs go
// inside the test's process, on one suite worker: the reference's revisions take milliseconds, so a
// worker per file would cost its start and save no wait.
import { randomBytes, randomUUID } from 'node:crypto';
import { startReference, type ReferenceServer } from '../../../../reference-impl/index.ts';
import type { ReferenceOptions } from '../../../../reference-impl/options.ts';
import { certifyHere, type CertifyRun } from '../../../support/certify.ts';
import type { InProcessOptions as RunOptions } from '../../../../harness/selftest/certify-in-process.ts';

export interface ControlPlaneTarget {
  server: ReferenceServer;
  keys: { apiKey: string; tenantId: string }[];
  close(): Promise<void>;
}

/** `platformLike`: the reference behaving as the hosted platform does (reference-impl/platform-like/README.md). */
export async function startControlPlane(mode: 'hosted' | 'self-hosted', platformLike?: ReferenceOptions['platformLike']): Promise<ControlPlaneTarget> {
  const keys = [0, 1].map(() => ({ apiKey: `apc-selftest-${randomBytes(12).toString('hex')}`, tenantId: randomUUID() }));
  const server = await startReference({ mode, apiKeys: keys.map((k) => ({ key: k.apiKey, tenants: [k.tenantId] })), phaseMs: 5, ...(platformLike ? { platformLike } : {}) });
  return { server, keys, close: () => server.close() };
}

/**
 * Certifies the control plane at `url` on the given requirements; `profile` overrides settings
 * (`timeouts` member by member); `run` is certifyHere's (one suite worker, or the file's kept one).
 */
export function certifyControlPlane(url: string, target: ControlPlaneTarget, mode: 'hosted' | 'self-hosted', requirements: string[], profile: Record<string, unknown> = {}, run?: RunOptions): Promise<CertifyRun> {
  const [own, other] = target.keys as [ControlPlaneTarget['keys'][0], ControlPlaneTarget['keys'][0]];
  return certifyHere({
    profile: {
      controlPlaneMode: mode,
      tenantId: own.tenantId,
      otherTenant: { apiKeyEnv: 'APC_SELFTEST_OTHER_KEY', tenantId: other.tenantId },
      endpoints: mode === 'hosted' ? [] : ['listeners'],
      fixtures: { failingImageUri: 'registry.invalid/acme/agent:fail-build', ...(mode === 'self-hosted' ? { clusterNamespace: 'agents' } : {}) },
      pollIntervalMs: 20,
      // The reference is free: unbudgeted, as when the harness starts it.
      budget: {},
      runs: 10,
      seed: 1,
      ...profile,
      timeouts: { requestMs: 10_000, streamMs: 10_000, deployMs: 20_000, statsMs: 10_000, ...(profile.timeouts as object | undefined) },
    },
    // No requirements: the whole control-plane catalogue.
    args: ['--control-plane-url', url, '--interfaces', 'control-plane', ...(requirements.length > 0 ? ['--requirements', requirements.join(',')] : [])],
    env: { APC_API_KEY: own.apiKey, APC_SELFTEST_OTHER_KEY: other.apiKey },
  }, run);
}
