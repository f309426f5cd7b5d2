// `apc cleanup` lists what runs left on a target (names with a run prefix, assistants tagged with
// a run), deletes it only with --yes, narrows to one run with --run, and never touches the rest.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type ReferenceServer } from '../../reference-impl/index.ts';
import { ROOT } from '../support/certify.ts';
import { apcHere } from '../support/apc-here.ts';

const apiKey = `apc-cleanup-${randomUUID()}`;
const tenant = randomUUID();
let server: ReferenceServer;
/** The same, deleting asynchronously: a deleted deployment lingers as AWAITING_DELETE for 3 s. */
let lingering: ReferenceServer;
const headers = { 'X-Api-Key': apiKey, 'X-Tenant-Id': tenant, 'Content-Type': 'application/json' };

beforeAll(async () => {
  server = await startReference({ apiKeys: [{ key: apiKey, tenants: [tenant] }] });
  lingering = await startReference({ apiKeys: [{ key: apiKey, tenants: [tenant] }], platformLike: { behaviours: ['async-delete'], timeScale: 1 } });
});
afterAll(async () => {
  await server?.close();
  await lingering?.close();
});

async function createDeployment(name: string, target = server): Promise<void> {
  const body = { name, source: 'internal_container', source_config: {}, source_revision_config: { image_uri: 'registry.example.com/agent:1' }, secrets: [] };
  const response = await fetch(`${target.urls.controlPlane}/v2/deployments`, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(response.status).toBe(201);
}

async function createAssistant(name: string, metadata: Record<string, string>): Promise<void> {
  const response = await fetch(`${server.urls.agentServer}/assistants`, { method: 'POST', headers, body: JSON.stringify({ graph_id: 'echo', name, context: {}, metadata }) });
  expect(response.ok).toBe(true);
}

async function deploymentNames(target = server): Promise<string[]> {
  const response = await fetch(`${target.urls.controlPlane}/v2/deployments?limit=100`, { headers });
  return ((await response.json()) as { resources: { name: string }[] }).resources.map((d) => d.name).sort();
}

async function assistantNames(): Promise<string[]> {
  const response = await fetch(`${server.urls.agentServer}/assistants/search`, { method: 'POST', headers, body: JSON.stringify({ limit: 100 }) });
  return ((await response.json()) as { name: string; metadata: Record<string, unknown> }[])
    .filter((a) => a.metadata?.created_by !== 'system')
    .map((a) => a.name)
    .sort();
}

type Run = { code: number | null; stdout: string; stderr: string };
const targetArgs = (target: ReferenceServer) => ['--control-plane-url', target.urls.controlPlane, '--agent-server-url', target.urls.agentServer, '--tenant-id', tenant];

/**
 * `apc cleanup` as a user runs it, a process of its own: for the dry run, which shows what the
 * process prints (never the key), and the refused run id, whose exit code is the point.
 */
function cleanupChild(...args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), 'cleanup', ...targetArgs(server), ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', APC_API_KEY: apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

/** `apc cleanup` inside this process, where what it deletes is the point: a child paid node's start and the CLI's imports for each. */
function cleanupOf(target: ReferenceServer, ...args: string[]): Promise<Run> {
  return apcHere(['cleanup', ...targetArgs(target), ...args], { APC_API_KEY: apiKey });
}

describe('apc cleanup', () => {
  beforeAll(async () => {
    await createDeployment('apc-aaa111-life-1');
    await createDeployment('apc-aaa111-auth-2');
    await createDeployment('apc-bbb222-d-1');
    await createDeployment('production-agent');
    await createAssistant('apc-aaa111-assistant-1', { apc_run: 'apc-aaa111' });
    // Found by its run tag although its name carries no prefix.
    await createAssistant('renamed by a test', { apc_run: 'apc-bbb222' });
    await createAssistant('support-bot', { team: 'support' });
  });

  test('a dry run lists every apc- resource and deletes nothing', async () => {
    const run = await cleanupChild();
    expect(run.code, run.stderr).toBe(0);
    for (const name of ['apc-aaa111-life-1', 'apc-aaa111-auth-2', 'apc-bbb222-d-1', 'apc-aaa111-assistant-1', 'renamed by a test']) expect(run.stdout).toContain(name);
    expect(run.stdout).not.toContain('production-agent');
    expect(run.stdout).not.toContain('support-bot');
    expect(run.stdout).toContain('5 resource(s) found; dry run: run again with --yes');
    expect(await deploymentNames()).toHaveLength(4);
    expect(run.stdout + run.stderr).not.toContain(apiKey);
  });

  test('--run ID --yes deletes that run only', async () => {
    const run = await cleanupOf(server, '--run', 'apc-aaa111', '--yes');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('3 of 3 resource(s) deleted');
    expect(run.stdout).not.toContain('apc-bbb222');
    expect(await deploymentNames()).toEqual(['apc-bbb222-d-1', 'production-agent']);
    expect(await assistantNames()).toEqual(['renamed by a test', 'support-bot']);
  });

  test('--yes deletes the rest of the apc- resources and leaves everything else', async () => {
    const run = await cleanupOf(server, '--yes');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('2 of 2 resource(s) deleted');
    expect(await deploymentNames()).toEqual(['production-agent']);
    expect(await assistantNames()).toEqual(['support-bot']);
    const again = await cleanupOf(server);
    expect(again.stdout).toContain('nothing left');
  });

  test('a run id that is not one exits 2', async () => {
    const run = await cleanupChild('--run', 'production');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--run: expected a run id such as apc-3f9a1c');
  });
});

describe('apc cleanup on a target that deletes asynchronously', () => {
  test('waits until each deleted deployment is gone, not only AWAITING_DELETE', async () => {
    await createDeployment('apc-ccc333-d-1', lingering);
    await createDeployment('production-agent', lingering);
    const run = await cleanupOf(lingering, '--yes');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('1 of 1 resource(s) deleted');
    // Had cleanup returned at the 204, the deployment would still be listed (AWAITING_DELETE) for 3 s.
    expect(await deploymentNames(lingering)).toEqual(['production-agent']);
  }, 60_000);
});

describe('apc cleanup on a target with small pages and many deployments', () => {
  test('finds every leftover past the first page (a page of 10 whatever limit asks), among 120 deployments of others', async () => {
    const paged = await startReference({ apiKeys: [{ key: apiKey, tenants: [tenant] }], platformLike: { behaviours: ['small-pages', 'many-deployments'] } });
    try {
      for (let i = 1; i <= 15; i++) await createDeployment(`apc-ddd444-left-${i}`, paged);
      const run = await cleanupOf(paged, '--yes');
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('15 of 15 resource(s) deleted');
      const left = await fetch(`${paged.urls.controlPlane}/v2/deployments?name_contains=apc-`, { headers });
      expect(((await left.json()) as { resources: unknown[] }).resources).toEqual([]);
    } finally {
      await paged.close();
    }
  }, 60_000);
});
