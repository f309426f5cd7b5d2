// Targets for the agent server and experiment upload self-tests: the reference implementation
// started here (with fault switches, a known key and short statistics delay), certified by URL
// with a profile written for the run.
import { randomBytes, randomUUID } from 'node:crypto';
import { startReference, type ReferenceServer } from '../../reference-impl/index.ts';
import { certify, type CertifyRun } from './certify.ts';

export interface Reference {
  server: ReferenceServer;
  apiKey: string;
  close(): Promise<void>;
}

export async function startTarget(faults: string[] = []): Promise<Reference> {
  const apiKey = `apc-selftest-${randomBytes(12).toString('hex')}`;
  const server = await startReference({ apiKeys: [{ key: apiKey, tenants: [randomUUID()] }], faults, statsDelayMs: 300 });
  return { server, apiKey, close: () => server.close() };
}

export interface CertifyByUrl {
  agentServerUrl?: string;
  tracingUrl?: string;
  apiKey: string;
  requirements: string[];
  /** Profile settings beyond the defaults below. */
  profile?: Record<string, unknown>;
}

/** Certifies the given URLs with a profile like the reference's own (fixtures, endpoints, timeouts). */
export function certifyByUrl(options: CertifyByUrl): Promise<CertifyRun> {
  return certify({
    profile: {
      endpoints: ['experiment-reads', 'dataset-create'],
      fixtures: { graphId: 'echo', failingGraphId: 'fail' },
      timeouts: { requestMs: 10_000, streamMs: 10_000, statsMs: 15_000 },
      pollIntervalMs: 50,
      runs: 10,
      seed: 1,
      ...options.profile,
    },
    args: [
      ...(options.agentServerUrl ? ['--agent-server-url', options.agentServerUrl] : []),
      ...(options.tracingUrl ? ['--tracing-url', options.tracingUrl] : []),
      '--requirements', options.requirements.join(','),
    ],
    env: { APC_API_KEY: options.apiKey },
  });
}
