// `apc init` discovers what a target offers and writes a profile with which `apc certify`
// certifies it; against a target with capabilities removed, the profile leaves them out. The
// commands run inside this process (test/support/apc-here.ts, `certifyHere`).
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { startReference } from '../../reference-impl/index.ts';
import { certifyHere, keptSuiteWorkers } from '../support/certify.ts';
import { apcHere } from '../support/apc-here.ts';
import { startProxy } from '../../harness/proxy/proxy.ts';
import { buildProfile } from '../../harness/profile/sources.ts';
import { scratchDir } from '../support/scratch.ts';

// The certifications share a suite worker, kept from run to run.
const suites = keptSuiteWorkers();

async function reference(mode: 'hosted' | 'self-hosted') {
  const keys = [0, 1].map(() => ({ key: `apc-init-${randomBytes(9).toString('hex')}`, tenants: [randomUUID()] }));
  const server = await startReference({ mode, apiKeys: keys, phaseMs: 5, statsDelayMs: 300 });
  return { server, keys };
}

describe('apc init', () => {
  test.each(['hosted', 'self-hosted'] as const)('against the %s reference writes a profile that certifies it', async (mode) => {
    const { server, keys } = await reference(mode);
    try {
      const out = join(scratchDir('init'), 'target.yaml');
      const init = await apcHere(
        ['init', '--control-plane-url', server.urls.controlPlane, '--agent-server-url', server.urls.agentServer, '--tracing-url', server.urls.experimentUpload, '--tenant-id', keys[0]!.tenants[0]!, '--other-tenant-id', keys[1]!.tenants[0]!, '--out', out],
        { APC_API_KEY: keys[0]!.key, APC_OTHER_API_KEY: keys[1]!.key },
      );
      expect(init.code, init.stderr).toBe(0);
      // The next step runs as printed in a clone, where apc is not on PATH (harness/apc-command.ts).
      expect(init.stdout).toContain(`Next: npx apc certify --profile ${out}`);
      const text = readFileSync(out, 'utf8');
      // So does the profile's own line on how to use it.
      expect(text).toContain('# Each setting says how it was found. Certify with: npx apc certify --profile <this file>');
      expect(text).not.toContain(keys[0]!.key);
      expect(text).toMatch(/agentServerHosting: platform {3}# POST \/assistants\/search without a key answered 401/);
      const written = parse(text) as { controlPlaneMode: string; sources: string[]; otherTenant?: unknown; fixtures: { failingGraphId?: string } };
      expect(written.controlPlaneMode).toBe(mode);
      expect(written.sources).toContain(mode === 'hosted' ? 'gitforge' : 'external_container');
      expect(written.otherTenant).toBeDefined();
      expect(written.fixtures.failingGraphId).toBe('fail');
      const run = await certifyHere({
        // The reference `apc serve` runs is free: unbudgeted, so every rule is judged.
        args: ['--profile', out, '--budget', 'none', '--poll-interval-ms', '20', '--request-timeout-ms', '10000', '--stream-timeout-ms', '10000', '--deploy-timeout-ms', '30000', '--runs', '5'],
        env: { APC_API_KEY: keys[0]!.key, APC_OTHER_API_KEY: keys[1]!.key },
        timeoutMs: 280_000,
      }, suites);
      const report = run.report!;
      expect(report.requirements.filter((r) => r.status === 'failed' || r.status === 'blocked').map((r) => r.id)).toEqual([]);
      // What init discovers is declared: nothing is not-applicable for an endpoint, the second
      // tenant, the failing graph or the hosting. Only what it cannot discover (a failing image)
      // and the other mode's rules remain.
      const needs = new Set(report.requirements.filter((r) => r.status === 'not-applicable').flatMap((r) => r.needs ?? []));
      expect([...needs].filter((n) => /^(endpoint|hosting):|other-tenant|failing-graph/.test(n))).toEqual([]);
      // CP-RES-004 is "not judged" on the in-repo self-hosted reference run as well (`apc certify
      // --control-plane-mode self-hosted`): a gap of the suite, not of the profile.
      const unjudged = report.requirements.filter((r) => r.level === 'MUST' && r.status === 'skipped' && !r.reason?.startsWith('excluded:'));
      expect(unjudged.map((r) => r.id).filter((id) => id !== 'CP-RES-004')).toEqual([]);
      if (unjudged.length === 0) {
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(['certified', 'passed']).toContain(report.verdict);
      }
      // Nothing init made is left behind.
      const left = await fetch(`${server.urls.controlPlane}/v2/deployments`, { headers: { 'X-Api-Key': keys[0]!.key, 'X-Tenant-Id': keys[0]!.tenants[0]! } });
      expect(JSON.stringify(await left.json())).not.toContain('-init-');
    } finally {
      await server.close();
    }
  }, 300_000);

  test('against a target with capabilities removed, the profile leaves them out and says why', async () => {
    const { server, keys } = await reference('hosted');
    const gone = new Set(['/v2/listeners', '/v1/integrations/gitforge/install']);
    const cp = await startProxy(server.urls.controlPlane, {
      request: (r) => {
        if (gone.has(r.path.split('?')[0]!)) return { status: 404, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"detail":"Not Found"}') };
        if (r.method === 'POST' && r.path === '/v2/deployments' && r.body.toString().includes('"internal_container"')) {
          return { status: 422, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"detail":[{"loc":["body","source"],"msg":"not offered","type":"enum"}]}') };
        }
        return r;
      },
    });
    const as = await startProxy(server.urls.agentServer, {
      request: (r) => (r.path === '/docs' || r.body.toString().includes('"graph_id":"fail"') ? { status: 404, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"detail":"Not Found"}') } : r),
    });
    try {
      const out = join(scratchDir('init'), 'target.yaml');
      const init = await apcHere(['init', '--control-plane-url', cp.url, '--agent-server-url', as.url, '--tenant-id', keys[0]!.tenants[0]!, '--out', out], { APC_API_KEY: keys[0]!.key });
      expect(init.code, init.stderr).toBe(0);
      const text = readFileSync(out, 'utf8');
      const written = parse(text) as { sources: string[]; endpoints: string[]; fixtures: { failingGraphId?: string }; otherTenant?: unknown };
      expect(written.sources).toEqual(['gitforge', 'internal_source']);
      expect(written.endpoints).toEqual([]);
      expect(written.fixtures.failingGraphId).toBeUndefined();
      expect(written.otherTenant).toBeUndefined();
      expect(text).toContain('# - listeners   (GET /v2/listeners answered 404: not offered)');
      expect(text).toContain('# - internal_container   (POST /v2/deployments of a deployment with source internal_container answered 422: refused)');
      // /docs is the spec's own endpoint: its absence is not written as "not offered", and the
      // certification that follows fails AS-DOCS-001 rather than calling it not applicable. In the
      // same way a source kind the spec gives every control plane (internal_container, 1.A) that the
      // target refuses is left out of `sources`, yet CP-SRC-005 (it is accepted) is judged and fails.
      expect(text).not.toMatch(/docs.*not offered/);
      // Unbudgeted, as the reference `apc serve` runs is free: a budget would collect the suites'
      // tests once more before the run and start a pool of deployments.
      const run = await certifyHere({ args: ['--profile', out, '--budget', 'none', '--interfaces', 'agent-server,control-plane', '--requirements', 'AS-DOCS-001,CP-SRC-005'], env: { APC_API_KEY: keys[0]!.key }, timeoutMs: 100_000 }, suites);
      expect(run.status('AS-DOCS-001'), run.stdout + run.stderr).toBe('failed');
      expect(run.status('CP-SRC-005'), run.stdout + run.stderr).toBe('failed');
      expect(run.code).toBe(1);
    } finally {
      await cp.close();
      await as.close();
      await server.close();
    }
  }, 240_000);

  test('finds out whether the target refuses a revision-creating PATCH while a revision is in progress (busyPatch)', async () => {
    const key = { key: `apc-init-${randomBytes(9).toString('hex')}`, tenants: [randomUUID()] };
    const refusing = await startReference({ apiKeys: [key], platformLike: { behaviours: ['busy-deployments', 'slow-builds'], timeScale: 0.2 } });
    const accepting = await startReference({ apiKeys: [key], phaseMs: 300 });
    try {
      const written = async (url: string) => {
        const out = join(scratchDir('init-busy'), 'target.yaml');
        const init = await apcHere(['init', '--control-plane-url', url, '--tenant-id', key.tenants[0]!, '--out', out], { APC_API_KEY: key.key });
        expect(init.code, init.stderr).toBe(0);
        return readFileSync(out, 'utf8');
      };
      expect(await written(refusing.urls.controlPlane)).toMatch(/^busyPatch: refused {3}# a secrets PATCH while revision \S+ was [A-Z_]+ answered 409 \(A revision is already in progress/m);
      expect(await written(accepting.urls.controlPlane)).toMatch(/^busyPatch: accepted {3}# a secrets PATCH while revision \S+ was [A-Z_]+ answered 200/m);
    } finally {
      await refusing.close();
      await accepting.close();
    }
  }, 120_000);

  test('apc certify on URLs without a profile probes the target and prints what it assumed', async () => {
    const { server, keys } = await reference('hosted');
    try {
      const run = await apcHere(
        ['certify', '--agent-server-url', server.urls.agentServer, '--requirements', 'AS-DOCS-001', '--reports', scratchDir('r')],
        { APC_API_KEY: keys[0]!.key },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('No profile given: probed the target');
      expect(run.stdout).toContain('agentServerHosting: POST /assistants/search without a key answered 401');
    } finally {
      await server.close();
    }
  }, 120_000);

  test('with only an agent server URL, the profile holds only its sections and no mode is printed', async () => {
    const { server, keys } = await reference('hosted');
    try {
      const out = join(scratchDir('init-as'), 'target.yaml');
      const init = await apcHere(['init', '--agent-server-url', server.urls.agentServer, '--out', out], { APC_API_KEY: keys[0]!.key });
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout).not.toMatch(/controlPlaneMode|control plane mode/);
      expect(init.stdout).toMatch(/so: agentServerHosting platform\n/);
      const text = readFileSync(out, 'utf8');
      for (const absent of ['controlPlaneMode', 'sources', 'endpoints', 'listeners', 'experiment-reads', 'imageUri', 'gitforge']) expect(text).not.toContain(absent);
      const written = parse(text) as { fixtures: { graphId: string } };
      expect(written.fixtures.graphId).toBe('echo');
      // The file is a valid profile.
      expect(buildProfile({ profileFile: out }, {}).urls['agent-server']).toBe(server.urls.agentServer);
    } finally {
      await server.close();
    }
  }, 120_000);
});
