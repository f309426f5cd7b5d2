// For the contract tests: verify a pact the consumer test just wrote against the reference
// implementation started here, optionally bent by a fault switch or a rewriting proxy in front
// of one interface (a deliberately broken provider).
import { readPactFile } from '../harness/contracts/pact-files.ts';
import { providerOf, verifyPact, type InteractionResult } from '../harness/contracts/verify.ts';
import { buildProfile } from '../harness/profile-sources.ts';
import { referenceProfileBase, startReferenceTarget } from '../harness/run/reference-target.ts';
import { startProxy, type ProxyRules } from '../test/support/rewriting-proxy.ts';
import { pactFile } from './pact-setup.ts';

export interface ReferenceVerification {
  faults?: string[];
  /** Rules of a proxy put in front of the provider's interface (hosted mode only). */
  bend?: ProxyRules;
}

export async function verifyAgainstReference(consumer: string, provider: string, options: ReferenceVerification = {}): Promise<InteractionResult[]> {
  const pact = readPactFile(pactFile(consumer, provider));
  const { iface, mode = 'hosted' } = providerOf(pact);
  const reference = await startReferenceTarget({ mode, faults: options.faults ?? [] });
  const profile = buildProfile({}, {}, referenceProfileBase());
  reference.apply(profile);
  const proxy = options.bend ? await startProxy(profile.urls[iface]!, options.bend) : undefined;
  if (proxy) profile.urls[iface] = proxy.url;
  try {
    return await verifyPact(pact, { profile });
  } finally {
    await proxy?.close();
    await reference.close();
  }
}

/** The interactions that failed, with their problems, for readable assertions. */
export function failuresOf(results: InteractionResult[]): Record<string, string[]> {
  return Object.fromEntries(results.filter((r) => !r.passed).map((r) => [r.description, r.problems]));
}
