// A wrong setup is exit 2 with what to fix, never a verdict on the target: each case a new user
// met (issue "Tell a wrong setup from a wrong server") as it behaves now. Commands run inside this
// process (`apcHere`, `certifyHere`) but where the working directory or the process is the point.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type ReferenceServer } from '../../reference-impl/index.ts';
import { writeReports } from '../../harness/report/write.ts';
import { sampleReport } from '../report/support/sample-report.ts';
import { apcHere } from '../support/apc-here.ts';
import { certifyHere, keptSuiteWorkers, ROOT } from '../support/certify.ts';
import { startProxy, type Proxy } from '../../harness/proxy/proxy.ts';
import { scratchDir } from '../support/scratch.ts';

const apc = (args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), ...args], {
    encoding: 'utf8',
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, NO_COLOR: '1', APC_API_KEY: '', ...options.env },
    timeout: 120_000,
  });

const tenant = randomUUID();
// The in-process certifications share a suite worker, kept from run to run.
const suites = keptSuiteWorkers();
let server: ReferenceServer;
let keyless: Proxy;

beforeAll(async () => {
  server = await startReference({ apiKeys: [{ key: 'k-setup', tenants: [tenant] }], statsDelayMs: 300 });
  // An agent server run outside the platform that needs no key: the proxy supplies it.
  keyless = await startProxy(server.urls.agentServer, { request: (r) => ({ ...r, headers: { ...r.headers, 'x-api-key': 'k-setup' } }) });
});
afterAll(async () => {
  await keyless.close();
  await server.close();
});

describe('a wrong setup is exit 2 with what to fix', { timeout: 180_000 }, () => {
  test('missing key against a hosted control plane: exit 2, the advice, and a report with verdict error', async () => {
    const run = await certifyHere({ args: ['--control-plane-url', server.urls.controlPlane, '--tenant-id', tenant] }, suites);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the control-plane at ${server.urls.controlPlane}: GET /v2/deployments answered HTTP 401`);
    expect(run.stderr).toContain('no API key was given: set APC_API_KEY');
    expect(run.stderr.split('\n').length).toBeLessThan(8);
    expect(run.report?.verdict).toBe('error');
    expect(run.report?.verdictReason).toContain('no API key was given');
  });

  test('the control-plane URL pointed at the agent server: not this interface', async () => {
    const run = await certifyHere({ args: ['--control-plane-url', server.urls.agentServer, '--api-key', 'k-setup'], keepReports: true }, suites);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/GET \/v2\/deployments answered HTTP 404.*does not serve the control-plane/);
    expect(run.stderr).toContain("check --control-plane-url: it must be the control-plane's base URL");
    expect(existsSync(join(run.reportDir, 'junit.xml'))).toBe(true);
    expect(run.report?.verdict).toBe('error');
  });

  test('nothing listening: exit 2 naming the URL', async () => {
    const run = await certifyHere({ args: ['--control-plane-url', 'http://127.0.0.1:1', '--api-key', 'k'] }, suites);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the control-plane at http://127.0.0.1:1: GET /v2/deployments answered nothing: connection refused');
  });

  test('a typo in a nested profile key is exit 2 with the path and the closest key', async () => {
    const run = await certifyHere({ profile: { fixtures: { graphID: 'echo' }, timeouts: { deployMS: 5 } }, args: ['--control-plane-url', 'http://127.0.0.1:1'] }, suites);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('fixtures.graphID: unknown setting; did you mean fixtures.graphId?');
    expect(run.stderr).toContain('timeouts.deployMS: unknown setting; did you mean timeouts.deployMs?');
  });

  test('an unknown id or a pattern that matches nothing is exit 2 with the closest ids', async () => {
    const r = await apcHere(['certify', '--requirements', 'CP-READ-001,CP-RAED-002']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"CP-RAED-002" is not a requirement id');
    expect(r.stderr).toContain('closest: CP-READ-002');
    expect((await apcHere(['certify', '--requirements', 'CP-REVX-00[1235]'])).stderr).toContain('matches no requirement');
    expect((await apcHere(['help', 'certify'])).stdout).toContain('[1235] one of these');
  });

  test('a self-run agent server without a key: AS-AUTH-* not applicable, and the report says why', async () => {
    const run = await certifyHere({
      profile: { fixtures: { graphId: 'echo' }, timeouts: { requestMs: 10_000, streamMs: 10_000 }, runs: 3, seed: 1 },
      args: ['--agent-server-url', keyless.url, '--agent-server-hosting', 'self-run', '--requirements', 'AS-AUTH-*,AS-THR-001'],
    }, suites);
    expect(run.code, run.stderr).toBe(0);
    expect(run.status('AS-THR-001')).toBe('passed');
    expect(run.status('AS-AUTH-001')).toBe('not-applicable');
    expect(run.result('AS-AUTH-002')?.reason).toMatch(/platform-hosted agent server \(spec 5 .*agentServerHosting self-run/);
  });

  test('URLs, no key, no profile: a keyless agent server is found to be self-run and the run goes on', async () => {
    const run = await certifyHere({ args: ['--agent-server-url', keyless.url, '--requirements', 'AS-AUTH-001,AS-THR-001', '--runs', '3'] }, suites);
    expect(run.code, run.stderr).toBe(0);
    expect(run.status('AS-THR-001')).toBe('passed');
    // Found self-run: the authentication rules of a platform-hosted agent server do not apply.
    expect(run.status('AS-AUTH-001')).toBe('not-applicable');
  });

  test('URLs, no key, no profile: an agent server that demands a key is exit 2, saying what it answered', async () => {
    const run = await certifyHere({ args: ['--agent-server-url', server.urls.agentServer, '--requirements', 'AS-THR-001'] }, suites);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the agent server is platform-hosted (POST /assistants/search without a key answered 401: it demands a key');
    expect(run.stderr).toContain('--agent-server-hosting self-run');
  });

  test('a platform-hosted agent server named so, with no key, is exit 2 before any request', async () => {
    const run = await certifyHere({ args: ['--agent-server-url', keyless.url, '--agent-server-hosting', 'platform', '--requirements', 'AS-THR-001'] }, suites);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the agent server is platform-hosted (agentServerHosting: platform');
  });

  test('an undeclared capability is reported as "not declared in the profile"', async () => {
    const run = await certifyHere({
      profile: { tenantId: tenant, endpoints: [], timeouts: { requestMs: 10_000, streamMs: 10_000 }, runs: 3, seed: 1 },
      args: ['--tracing-url', server.urls.experimentUpload, '--requirements', 'EU-DS-006,EU-REQ-001'],
      env: { APC_API_KEY: 'k-setup' },
    }, suites);
    // An optional endpoint (upload-url, integrations and /docs are always judged).
    expect(run.result('EU-DS-006')?.reason).toBe('endpoint dataset-create not declared in the profile (endpoints)');
    expect(run.stdout + run.stderr).not.toContain('lacks');
  });

  test('fault names are listed in help, and an unknown one is exit 2', async () => {
    expect((await apcHere(['help', 'certify'])).stdout).toContain('cp.no-auth');
    expect((await apcHere(['help', 'serve'])).stdout).toContain('as.no-data-line');
    const r = await apcHere(['certify', '--reference-fault', 'cp.no-auht']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown fault "cp.no-auht" (did you mean cp.no-auth?)');
    const serve = await apcHere(['serve', '--fault', 'nope']);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain('--fault: unknown fault "nope"');
  });

  test('reports go under ./reports of the working directory', () => {
    const cwd = scratchDir('cwd');
    const r = apc(['certify', '--control-plane-url', 'http://127.0.0.1:1', '--api-key', 'k'], { cwd });
    expect(r.status).toBe(2);
    const [runDir] = readdirSync(join(cwd, 'reports'));
    expect(JSON.parse(readFileSync(join(cwd, 'reports', runDir!, 'compliance.json'), 'utf8')).verdict).toBe('error');
    expect(r.stderr).toContain(`Report (verdict error): reports/${runDir}`);
  });

  test('apc report merge writes to ./reports of the working directory; allure looks there too', { timeout: 180_000 }, () => {
    const cwd = scratchDir('merge-cwd');
    const shards = [1, 2].map((index) => {
      const dir = join(cwd, `shard-${index}`);
      mkdirSync(dir);
      writeReports(dir, sampleReport({ shard: { index, count: 2 } }));
      return dir;
    });
    const merged = apc(['report', 'merge', ...shards], { cwd });
    expect(merged.stderr).toBe('');
    const [mergeDir] = readdirSync(join(cwd, 'reports'));
    expect(existsSync(join(cwd, 'reports', mergeDir!, 'compliance.json'))).toBe(true);
    const empty = scratchDir('allure-cwd');
    expect(apc(['report', 'allure'], { cwd: empty }).stderr).toContain('no report folder with allure-results under reports');
  });

  test('apc serve on a busy port or an unreachable database: one line, exit 2', { timeout: 180_000 }, async () => {
    const busy = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    const port = String((busy.address() as { port: number }).port);
    const r = apc(['serve', '--control-plane-port', port, '--agent-server-port', '0', '--tracing-port', '0']);
    busy.close();
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    const db = apc(['serve', '--database-url', 'postgres://u:secret@127.0.0.1:1/x', '--control-plane-port', '0', '--agent-server-port', '0', '--tracing-port', '0']);
    expect(db.status).toBe(2);
    expect(db.stderr.trim().split('\n')).toHaveLength(1);
    expect(db.stderr).toContain('cannot use the database at postgres://[credentials]@127.0.0.1:1/x');
    expect(db.stderr).not.toContain('secret');
  });

  test('the report records the profile as given, which --replay starts from (test/harness/replay-profile.test.ts)', async () => {
    const dir = scratchDir('replay-src');
    const file = join(dir, 'p.yaml');
    writeFileSync(file, 'sources: [internal_source]\ncontrolPlaneMode: hosted\n');
    const first = await apcHere(['certify', '--profile', file, '--control-plane-url', 'http://127.0.0.1:1', '--api-key', 'k', '--reports', join(dir, 'r')]);
    expect(first.code).toBe(2);
    const recorded = JSON.parse(readFileSync(join(dir, 'r', 'compliance.json'), 'utf8'));
    expect(recorded.target.profile.sources).toEqual(['internal_source']);
  });
});
