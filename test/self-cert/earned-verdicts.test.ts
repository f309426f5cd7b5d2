// Verdicts are earned, as a new user would see them: a subset run is "passed", not a certificate;
// nothing judged is an error; a profile without a second tenant is incomplete; and one deviation of
// a target fails the one rule it breaks, while the rest still pass.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { certifyHere, keptSuiteWorkers, type CertifyRun } from '../support/certify.ts';
import { editJson, startProxy, type ProxiedRequest, type Proxy, type ProxyRules } from '../../harness/proxy/proxy.ts';
import { startControlPlane, type ControlPlaneTarget } from './control-plane/support/url-target.ts';

let target: ControlPlaneTarget;
const suites = keptSuiteWorkers();
beforeAll(async () => {
  target = await startControlPlane('hosted');
});
afterAll(() => target.close());

/**
 * The reference control plane by URL, with one workspace only unless `otherTenant` is given. Inside
 * this process on one suite worker, kept from run to run: the reference's revisions take
 * milliseconds, so a worker per suite file (what a URL target gets) would cost its start and save
 * no wait.
 */
function run(url: string, args: string[], profile: Record<string, unknown> = {}): Promise<CertifyRun> {
  const [own, other] = target.keys;
  return certifyHere({
    profile: {
      controlPlaneMode: 'hosted',
      tenantId: own!.tenantId,
      fixtures: { failingImageUri: 'registry.invalid/acme/agent:fail-build' },
      timeouts: { requestMs: 10_000, streamMs: 10_000, deployMs: 20_000, statsMs: 10_000 },
      pollIntervalMs: 20,
      seed: 1,
      // The reference is free: unbudgeted, as when the harness starts it.
      budget: {},
      ...profile,
    },
    args: ['--control-plane-url', url, '--interfaces', 'control-plane', ...args],
    env: { APC_API_KEY: own!.apiKey, APC_SELFTEST_OTHER_KEY: other!.apiKey },
    timeoutMs: 590_000,
  }, suites);
}

const failedIds = (r: CertifyRun) => r.report!.requirements.filter((q) => q.status === 'failed').map((q) => q.id);

describe('the scope of a verdict', () => {
  test('one requirement that cannot apply (no second tenant) is MUST 0/0: an error, not a certificate', async () => {
    const r = await run(target.server.urls.controlPlane, ['--requirements', 'CP-TEN-001']);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.report!.verdict).toBe('error');
    expect(r.report!.verdictReason).toMatch(/MUST 0\/0/);
  }, 600_000);

  test('a run narrowed by --requirements that passes is "passed (subset)" in the terminal, the report and the badge', async () => {
    const r = await run(target.server.urls.controlPlane, ['--requirements', 'CP-READ-001'], { runs: 25 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.report!.verdict).toBe('passed');
    expect(r.stdout).toContain('PASSED (SUBSET)');
    expect(r.report!.verdictReason).toMatch(/a subset, not a certificate/);
    // Creates run fewer cases on purpose; the report says how many of the --runs asked.
    expect(r.result('CP-READ-001')).toMatchObject({ status: 'passed', cases: { ran: 5, asked: 25 } });
    expect(r.result('CP-READ-001')!.checks.held).toBeGreaterThan(0);
  }, 600_000);

  test('tests that cannot judge their rule say why instead of passing', async () => {
    const r = await run(target.server.urls.controlPlane, ['--requirements', 'CP-TEN-004,CP-TEN-005,CP-READ-001'], { tenantId: undefined, runs: 2 });
    expect(r.result('CP-TEN-004')).toMatchObject({ status: 'not-applicable', reason: expect.stringMatching(/no tenantId/) });
    expect(r.result('CP-TEN-005')).toMatchObject({ status: 'not-applicable' });
  }, 600_000);

  test('a whole catalogue without a second tenant is incomplete, saying what to add', async () => {
    const r = await run(target.server.urls.controlPlane, [], { runs: 3 });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.report!.verdict).toBe('incomplete');
    expect(r.report!.verdictReason).toMatch(/CP-TEN-001.*otherTenant/s);
    expect(r.stdout).toMatch(/MUST \d+\/\d+ · \d+ MUST n\/a/);
    for (const id of ['CP-TEN-001', 'CP-TEN-002', 'CP-TEN-003', 'CP-TEN-005']) expect(r.status(id)).toBe('not-applicable');
  }, 600_000);
});

describe('one deviation fails the one rule it breaks', () => {
  const pathOf = (r: ProxiedRequest) => r.path.split('?')[0]!;
  const isDeploymentRead = (r: ProxiedRequest) => pathOf(r).startsWith('/v2/deployments') && !pathOf(r).includes('/revisions');
  const deviations: [string, ProxyRules, string[]][] = [
    [
      'create answers 200 instead of 201',
      { answer: (r, a) => (r.method === 'POST' && pathOf(r) === '/v2/deployments' && a.status === 201 ? { ...a, status: 200 } : a) },
      ['CP-CREATE-001'],
    ],
    [
      'every deployment has a status outside its enum',
      { answer: (r, a) => (isDeploymentRead(r) ? editJson(a, (d) => void ('status' in d && (d.status = 'SPARKLING'))) : a) },
      ['CP-CREATE-002', 'CP-PATCH-001'],
    ],
    [
      'responses carry no tenant_id',
      {
        answer: (r, a) =>
          pathOf(r).startsWith('/v2/deployments')
            ? editJson(a, (body) => {
                for (const d of Array.isArray(body.resources) ? (body.resources as Record<string, unknown>[]) : [body]) delete d.tenant_id;
              })
            : a,
      },
      // Each a rule about the shape of a response that carries a deployment (72 failed before).
      ['CP-CREATE-002', 'CP-PATCH-001', 'CP-READ-002', 'CP-READ-005', 'CP-TEN-004'],
    ],
  ];

  const proxies: Proxy[] = [];
  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.close()));
  });

  test.each(deviations)('%s', async (_name, rules, expected) => {
    const proxy = await startProxy(target.server.urls.controlPlane, rules);
    proxies.push(proxy);
    const r = await run(proxy.url, [], { runs: 3, otherTenant: { apiKeyEnv: 'APC_SELFTEST_OTHER_KEY', tenantId: target.keys[1]!.tenantId } });
    expect(r.report, r.stderr).toBeDefined();
    expect(failedIds(r).sort(), JSON.stringify(r.report!.requirements.filter((q) => q.status === 'failed').map((q) => [q.id, q.failures[0]?.message]))).toEqual([...expected].sort());
    expect(r.report!.verdict).toBe('not-certified');
  }, 600_000);
});
