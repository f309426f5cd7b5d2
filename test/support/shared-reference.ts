// One reference implementation for the whole test run, started by global-setup.ts as
// APC_REFERENCE says: `process` (the default: in the vitest main process) or `container` (the
// product image under testcontainers; needs Docker, see README). APC_REFERENCE_DATABASE=postgres
// puts its storage in a PostgreSQL container. Tests (and the Pact provider verification) read
// where it listens with `sharedReference()`, and certify it with `sharedReferenceCertify()`.
import { inject } from 'vitest';
import { referenceChoice } from '../../harness/reference/reference-choice.ts';
import { referenceProfileFile, startReferenceTarget } from '../../harness/reference/reference-target.ts';
import type { ReferenceInstance } from '../../schemas/compliance-report.ts';
import type { CertifyOptions } from './certify.ts';

export interface SharedReference {
  /** Which reference runs: a process, or a container of which image. */
  instance: ReferenceInstance;
  urls: { 'control-plane': string; 'agent-server': string; 'experiment-upload': string };
  apiKey: string;
  tenantId: string;
  otherApiKey: string;
  otherTenantId: string;
  /** A profile (YAML shape) of everything the reference offers; its keys come from APC_API_KEY and APC_OTHER_API_KEY. */
  profile: Record<string, unknown>;
}

export async function startSharedReference(env: NodeJS.ProcessEnv): Promise<{ reference: SharedReference; close(): Promise<void> }> {
  const choice = referenceChoice(env.APC_REFERENCE, env.APC_REFERENCE_DATABASE);
  if (typeof choice === 'string') throw new Error(`APC_REFERENCE / APC_REFERENCE_DATABASE: ${choice.replace(/^--\w+: /, '')}`);
  const target = await startReferenceTarget({ mode: 'hosted', ...choice, env });
  const [own, other] = target.grants;
  return {
    reference: {
      instance: target.instance,
      urls: target.urls,
      apiKey: own!.key,
      tenantId: own!.tenants[0]!,
      otherApiKey: other!.key,
      otherTenantId: other!.tenants[0]!,
      profile: referenceProfileFile(target),
    },
    close: () => target.close(),
  };
}

/** The run's shared reference implementation (see global-setup.ts). */
export function sharedReference(): SharedReference {
  return inject('reference');
}

/** `certify()` options that certify the shared reference by URL, keys in the environment. */
export function sharedReferenceCertify(args: string[]): CertifyOptions {
  const reference = sharedReference();
  return { args, profile: reference.profile, env: { APC_API_KEY: reference.apiKey, APC_OTHER_API_KEY: reference.otherApiKey } };
}
