// Preflight tells a wrong setup from a wrong server, per interface, before any suite runs.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildProfile } from '../../harness/profile/sources.ts';
import { checkSetup, preflight, setupProblems } from '../../harness/run/preflight.ts';
import { startReference, type ReferenceServer } from '../../reference-impl/index.ts';

const tenant = randomUUID();
let server: ReferenceServer;

beforeAll(async () => {
  server = await startReference({ apiKeys: [{ key: 'k-preflight', tenants: [tenant] }] });
});
afterAll(() => server.close());

const profileFor = (urls: Record<string, string>, apiKey?: string) => {
  const p = buildProfile({ apiKey, tenantId: tenant }, {});
  p.urls = urls;
  return p;
};

describe('preflight', () => {
  test('ready: each interface answers its spec request with the key', async () => {
    const p = profileFor({ 'control-plane': server.urls.controlPlane, 'agent-server': server.urls.agentServer, 'experiment-upload': server.urls.experimentUpload }, 'k-preflight');
    const results = await preflight(p, ['control-plane', 'agent-server', 'experiment-upload']);
    expect(results.map((r) => r.state)).toEqual(['ready', 'ready', 'ready']);
  });

  test('nothing listens: the URL and what to check are named', async () => {
    const [r] = await preflight(profileFor({ 'control-plane': 'http://127.0.0.1:1' }, 'k'), ['control-plane']);
    expect(r).toMatchObject({ state: 'nothing-listens', url: 'http://127.0.0.1:1' });
    expect(r!.seen).toContain('connection refused');
    expect(r!.advice).toContain('--control-plane-url');
  });

  test('not this interface: the control-plane URL pointed at the agent server', async () => {
    const [r] = await preflight(profileFor({ 'control-plane': server.urls.agentServer }, 'k-preflight'), ['control-plane']);
    expect(r!.state).toBe('not-this-interface');
    expect(r!.seen).toMatch(/HTTP 404.*does not serve the control-plane/);
  });

  test('refused: a wrong key, and no key at all, are the setup, with what to do', async () => {
    const [wrong] = await preflight(profileFor({ 'control-plane': server.urls.controlPlane }, 'not-the-key'), ['control-plane']);
    expect(wrong!.state).toBe('refused');
    expect(wrong!.advice).toMatch(/check that the given key is valid/);
    const [none] = await preflight(profileFor({ 'experiment-upload': server.urls.experimentUpload }), ['experiment-upload']);
    expect(none!.state).toBe('refused');
    expect(none!.advice).toContain('no API key was given: set APC_API_KEY');
  });

  test('a refused second tenant is named as the second key', async () => {
    const p = profileFor({ 'control-plane': server.urls.controlPlane }, 'k-preflight');
    p.otherTenant = { apiKey: 'not-a-key', tenantId: randomUUID() };
    const problems = await checkSetup(p, ['control-plane']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/second key or tenant was refused.*--other-api-key/);
  });

  test('a platform-hosted agent server without a key is a setup problem; self-run is asked without one', async () => {
    const hosted = profileFor({ 'agent-server': server.urls.agentServer });
    expect(setupProblems(hosted, ['agent-server'])[0]).toMatch(/platform-hosted.*no API key was given.*--agent-server-hosting self-run/);
    const selfRun = { ...hosted, agentServerHosting: 'self-run' as const };
    expect(setupProblems(selfRun, ['agent-server'])).toEqual([]);
    // The reference demands a key, so asked without one it refuses: that is reported, not judged.
    expect((await preflight(selfRun, ['agent-server']))[0]!.state).toBe('refused');
  });
});
