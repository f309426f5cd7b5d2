// `apc init` creates deployments and revisions while it finds out the profile (a deployment of each
// source kind, a PATCH for busyPatch). It holds them to a budget as certify does (--budget,
// APC_BUDGET; a target by URL gets 12 deployments and 40 revisions by default), sends no probe the
// budget cannot cover (its setting keeps its default, and the profile says why), and prints what
// it created and deleted, so a user's bill is known. Against the reference, inside this process.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReference } from '../../reference-impl/index.ts';
import { apcHere } from '../support/apc-here.ts';
import { scratchDir } from '../support/scratch.ts';

const key = { key: `apc-init-${randomBytes(9).toString('hex')}`, tenants: [randomUUID()] };
let server: Awaited<ReturnType<typeof startReference>>;
beforeAll(async () => {
  server = await startReference({ mode: 'hosted', apiKeys: [key], phaseMs: 300 });
});
afterAll(() => server.close());

async function init(extra: string[], env: Record<string, string> = {}) {
  const out = join(scratchDir('init-budget'), 'target.yaml');
  const run = await apcHere(['init', '--control-plane-url', server.urls.controlPlane, '--tenant-id', key.tenants[0]!, '--out', out, ...extra], {
    APC_API_KEY: key.key,
    ...env,
  });
  expect(run.code, run.stderr).toBe(0);
  return { stdout: run.stdout, profile: readFileSync(out, 'utf8') };
}

/** The deployments the reference still lists for the key (init deletes what it made). */
async function listed(): Promise<unknown[]> {
  const answer = await fetch(`${server.urls.controlPlane}/v2/deployments`, { headers: { 'x-api-key': key.key, 'x-tenant-id': key.tenants[0]! } });
  return ((await answer.json()) as { resources: unknown[] }).resources;
}

test('by default init stays within the default budget of a URL target and prints what it created and deleted', async () => {
  const { stdout } = await init([]);
  const bill = /created: (\d+) deployments?, (\d+) revisions? \(budget 12 deployments, 40 revisions\); deleted: (\d+) deployment\(s\)/.exec(stdout);
  expect(bill, stdout).not.toBeNull();
  const [, deployments, revisions, deleted] = bill!.map(Number);
  // A deployment of each source kind the hosted reference accepts, their first revisions and the busyPatch probe's.
  expect(deployments).toBeGreaterThan(0);
  expect(revisions).toBeGreaterThan(deployments!);
  expect(deleted).toBe(deployments);
  expect(await listed()).toEqual([]);
}, 120_000);

test('within a budget of one deployment and one revision, init probes one source, sends no PATCH, and the profile says why', async () => {
  const { stdout, profile } = await init([], { APC_BUDGET: 'deployments=1,revisions=1' });
  expect(stdout).toMatch(/created: 1 deployment, 1 revision \(budget 1 deployment, 1 revision\); deleted: 1 deployment\(s\)/);
  expect(profile).toMatch(
    /not probed \(budget: spent: created 1 deployment, 1 revision of the budget \(1 deployment, 1 revision\), and POST \/v2\/deployments could create more\)/,
  );
  expect(profile).toMatch(/^busyPatch: accepted {3}# not probed \(budget: spent: .*PATCH/m);
  expect(await listed()).toEqual([]);
  // --budget none lifts it: every source is probed again.
  const free = await init(['--budget', 'none']);
  expect(free.stdout).toMatch(/created: \d+ deployments, \d+ revisions \(no budget\)/);
  expect(free.profile).not.toContain('not probed');
}, 120_000);
