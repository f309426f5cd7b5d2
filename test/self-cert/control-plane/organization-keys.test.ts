// Organization keys (field notes): one key may act for several workspaces, X-Tenant-Id choosing
// which. A profile whose second workspace uses the main key is "a second workspace", not "a second
// key": the isolation rules still hold between the two workspaces, and CP-TEN-005 (a workspace the
// key may NOT act for) is judged only when the profile names one. A target that lets the key act
// for a workspace it may not still fails CP-TEN-005.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type ReferenceServer } from '../../../reference-impl/index.ts';
import { startProxy } from '../../../harness/proxy/proxy.ts';
import { certifyHere, keptSuiteWorkers, type CertifyRun } from '../../support/certify.ts';

const organizationKey = `apc-selftest-${randomBytes(12).toString('hex')}`;
const [own, second, foreign] = [randomUUID(), randomUUID(), randomUUID()];
let server: ReferenceServer;
// The certifications share a suite worker, kept from run to run.
const suites = keptSuiteWorkers();

beforeAll(async () => {
  // The organization key acts for two workspaces; a third belongs to another key.
  server = await startReference({ apiKeys: [{ key: organizationKey, tenants: [own, second] }, { key: `apc-other-${randomBytes(8).toString('hex')}`, tenants: [foreign] }], phaseMs: 5 });
});
afterAll(() => server.close());

function run(url: string, profile: Record<string, unknown>): Promise<CertifyRun> {
  return certifyHere({
    // The reference is free: unbudgeted, as when the harness starts it (a budget collects the
    // suites' tests once more before the run and starts a pool of deployments).
    profile: { controlPlaneMode: 'hosted', tenantId: own, otherTenant: { tenantId: second }, timeouts: { deployMs: 20_000 }, pollIntervalMs: 20, runs: 5, seed: 1, budget: {}, ...profile },
    args: ['--control-plane-url', url, '--interfaces', 'control-plane', '--requirements', 'CP-TEN-*'],
    env: { APC_API_KEY: organizationKey },
    timeoutMs: 300_000,
  }, suites);
}

describe('a second workspace of an organization key', () => {
  test('isolates the workspaces (CP-TEN-001..003 pass) and leaves CP-TEN-005 not applicable, saying why', async () => {
    const r = await run(server.urls.controlPlane, {});
    for (const id of ['CP-TEN-001', 'CP-TEN-002', 'CP-TEN-003', 'CP-TEN-004']) expect(r.status(id), r.stdout).toBe('passed');
    expect(r.result('CP-TEN-005')).toMatchObject({ status: 'not-applicable', needs: ['fixture:foreign-tenant'] });
    expect(r.result('CP-TEN-005')!.reason).toMatch(/a workspace the main key may not act for \(foreignTenantId/);
  }, 320_000);

  test('with foreignTenantId, CP-TEN-005 is judged and passes', async () => {
    const r = await run(server.urls.controlPlane, { foreignTenantId: foreign });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.status('CP-TEN-005')).toBe('passed');
  }, 320_000);

  test('a target that lets the key act for a workspace it may not fails CP-TEN-005', async () => {
    // The proxy answers for the foreign workspace as if it were the key's own.
    const proxy = await startProxy(server.urls.controlPlane, {
      request: (request) => (request.headers['x-tenant-id'] === foreign ? { ...request, headers: { ...request.headers, 'x-tenant-id': own } } : request),
    });
    try {
      const r = await run(proxy.url, { foreignTenantId: foreign });
      expect(r.status('CP-TEN-005')).toBe('failed');
      expect(r.code).toBe(1);
    } finally {
      await proxy.close();
    }
  }, 320_000);
});
