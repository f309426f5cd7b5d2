// A target that (wrongly) accepts the latency probe's empty create (harness/run/latency.ts): the
// run sends it once, deletes what it made, and counts it in its report's "created" and in its
// budget, which the tests then have that much less of. The reference behind a proxy that turns the
// empty create into a valid one.
import { expect, test } from 'vitest';
import { startProxy } from '../../../harness/proxy/proxy.ts';
import { certifyControlPlane, startControlPlane } from './support/url-target.ts';

const VALID = {
  name: 'accepted-empty-create',
  source: 'internal_container',
  source_config: {},
  source_revision_config: { image_uri: 'registry.example.com/agent:1' },
  secrets: [],
};

test("the empty create accepted: sent once, deleted, counted in the report's created and in the budget (the test's create is then skipped, budget spent)", async () => {
  const target = await startControlPlane('hosted');
  let emptyCreates = 0;
  const proxy = await startProxy(target.server.urls.controlPlane, {
    request(request) {
      if (request.method !== 'POST' || !request.path.startsWith('/v2/deployments') || request.body.toString('utf8') !== '{}') return request;
      emptyCreates += 1;
      return { ...request, body: Buffer.from(JSON.stringify(VALID)) };
    },
  });
  try {
    const run = await certifyControlPlane(proxy.url, target, 'hosted', ['CP-SRC-005'], { budget: { deployments: 1, revisions: 1 } });
    expect(emptyCreates).toBe(1);
    expect(run.report!.cost?.created['control-plane']).toEqual({ deployments: 1, revisions: 1 });
    expect(run.status('CP-SRC-005')).toBe('skipped');
    // The probe's create took the whole budget before the tests were planned: the test is left out, and says why.
    expect(run.result('CP-SRC-005')?.reason).toMatch(
      /^budget: the profile's budget \(1 deployment, 1 revision\) is spent on other tests and on probing the target \(1 deployment, 1 revision\)/,
    );
    const [own] = target.keys;
    const left = await fetch(`${target.server.urls.controlPlane}/v2/deployments`, { headers: { 'x-api-key': own!.apiKey, 'x-tenant-id': own!.tenantId } });
    expect(((await left.json()) as { resources: unknown[] }).resources).toEqual([]);
  } finally {
    await proxy.close();
    await target.close();
  }
}, 120_000);
