// Targets for the agent server and experiment upload self-tests: the reference implementation
// started here (with fault switches, a known key and short statistics delay), certified by URL
// with a profile written for the run, and the assertions on its report.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { stringify } from 'yaml';
import { startReference, type ReferenceServer } from '../../../../reference-impl/index.ts';
import { certify, type CertifyRun } from '../../../support/certify.ts';

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
export async function certifyByUrl(options: CertifyByUrl): Promise<CertifyRun> {
  const dir = mkdtempSync(join(tmpdir(), 'apc-selftest-'));
  const profile = {
    endpoints: ['experiment-reads', 'dataset-create', 'docs'],
    fixtures: { graphId: 'echo', failingGraphId: 'fail' },
    timeouts: { requestMs: 10_000, streamMs: 10_000, statsMs: 15_000 },
    pollIntervalMs: 50,
    runs: 10,
    seed: 1,
    ...options.profile,
  };
  const file = join(dir, 'profile.yaml');
  writeFileSync(file, stringify(profile));
  try {
    return await certify({
      args: [
        '--profile', file,
        ...(options.agentServerUrl ? ['--agent-server-url', options.agentServerUrl] : []),
        ...(options.tracingUrl ? ['--tracing-url', options.tracingUrl] : []),
        '--requirements', options.requirements.join(','),
      ],
      env: { APC_API_KEY: options.apiKey },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The run produced a report in which each id failed, with a failure message matching its pattern. */
export function expectFailed(run: CertifyRun, expected: Record<string, RegExp>): void {
  expect(run.report, `certify wrote no report:\n${run.stderr}\n${run.stdout}`).toBeDefined();
  for (const [id, pattern] of Object.entries(expected)) {
    const result = run.result(id);
    expect(result?.status, `${id} should have failed:\n${JSON.stringify(result, null, 2)}`).toBe('failed');
    const messages = result!.failures.map((f) => `${f.message} ${f.expected ?? ''} ${f.seen ?? ''}`).join('\n');
    expect(messages, `${id} failed for another reason than expected`).toMatch(pattern);
  }
}
