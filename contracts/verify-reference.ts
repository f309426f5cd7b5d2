// For the contract tests: verify a pact the consumer test just wrote against the reference
// implementation. A plain hosted verification uses the test run's shared reference (a process,
// or the product image under testcontainers with APC_REFERENCE=container: `.ci/run` does both).
// A self-hosted pact, a fault switch, or a rewriting proxy in front of one interface (a
// deliberately broken provider) starts a reference of its own here.
import { readPactFile } from '../harness/pact/pact-files.ts';
import { providerOf, type InteractionResult } from '../harness/pact/verify.ts';
import { verifyPact } from '../harness/pact/verifier-process.ts';
import { buildProfile } from '../harness/profile/sources.ts';
import { applyReference, referenceProfileBase, startReferenceTarget } from '../harness/reference/reference-target.ts';
import { sharedReference } from '../test/support/shared-reference.ts';
import { startProxy, type ProxyRules } from '../harness/proxy/proxy.ts';
import { pactFile } from './pact-setup.ts';

export interface ReferenceVerification {
  faults?: string[];
  /** Rules of a proxy put in front of the provider's interface (hosted mode only). */
  bend?: ProxyRules;
}

export async function verifyAgainstReference(consumer: string, provider: string, options: ReferenceVerification = {}): Promise<InteractionResult[]> {
  const pact = readPactFile(pactFile(consumer, provider));
  const { iface, mode = 'hosted' } = providerOf(pact);
  const own = mode !== 'hosted' || options.faults?.length || options.bend;
  const reference = own ? await startReferenceTarget({ mode, faults: options.faults ?? [] }) : undefined;
  const profile = buildProfile({}, {}, referenceProfileBase());
  if (reference) reference.apply(profile);
  else {
    const shared = sharedReference();
    applyReference(profile, {
      urls: shared.urls,
      grants: [
        { key: shared.apiKey, tenants: [shared.tenantId] },
        { key: shared.otherApiKey, tenants: [shared.otherTenantId] },
      ],
      mode,
    });
  }
  const proxy = options.bend ? await startProxy(profile.urls[iface]!, options.bend) : undefined;
  if (proxy) profile.urls[iface] = proxy.url;
  try {
    return await verifyPact(pact, { profile });
  } finally {
    await proxy?.close();
    await reference?.close();
  }
}

/** The interactions that failed, with their problems, for readable assertions. */
export function failuresOf(results: InteractionResult[]): Record<string, string[]> {
  return Object.fromEntries(results.filter((r) => !r.passed).map((r) => [r.description, r.problems]));
}
