// Organization keys (issue "Certify a real platform"): on the real platform one key may act for
// several workspaces, X-Tenant-Id choosing which. A profile whose second tenant uses the main key
// has no workspace the key may not act for, so CP-TEN-005 cannot be judged: it must say why, never
// fail as if the key had been wrongly let in.
import { randomBytes, randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import { referenceProfileBase } from '../../harness/reference/reference-target.ts';
import { startReference } from '../../reference-impl/index.ts';
import { certifyHere } from '../support/certify.ts';

test('a second workspace under the same key leaves CP-TEN-005 unjudged, with why, instead of failing it', async () => {
  const key = `apc-org-${randomBytes(12).toString('hex')}`;
  const [main, second] = [randomUUID(), randomUUID()];
  const server = await startReference({ apiKeys: [{ key, tenants: [main, second] }], phaseMs: 10, statsDelayMs: 300 });
  try {
    const base = referenceProfileBase();
    // Inside this process: nothing here is about the process itself.
    const run = await certifyHere({
      profile: {
        urls: { 'control-plane': server.urls.controlPlane },
        apiKeyEnv: 'APC_API_KEY',
        tenantId: main,
        otherTenant: { apiKeyEnv: 'APC_API_KEY', tenantId: second },
        timeouts: base.timeouts,
        pollIntervalMs: base.pollIntervalMs,
        // The reference is free: unbudgeted, as when the harness starts it (a budget collects the
        // suites' tests once more before the run and starts a pool of deployments).
        budget: {},
      },
      args: ['--requirements', 'CP-TEN-*', '--runs', '5'],
      env: { APC_API_KEY: key },
    });
    const output = `${run.stdout}\n${run.stderr}`;
    const tenantRules = run.report?.requirements.filter((r) => r.id.startsWith('CP-TEN-')) ?? [];
    expect(tenantRules.length, output).toBeGreaterThan(0);
    expect(tenantRules.filter((r) => r.status === 'failed' || r.status === 'blocked').map((r) => r.id), output).toEqual([]);
    const ten005 = run.result('CP-TEN-005');
    expect(ten005?.status, output).not.toBe('passed');
    expect(ten005?.reason, output).toMatch(/workspace/i);
  } finally {
    await server.close();
  }
}, 320_000);
