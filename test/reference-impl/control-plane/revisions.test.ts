// Revisions over HTTP on both backends: the creation table of spec 3, revision values, progress to
// DEPLOYED with deterministic failures, the active revision, and the listing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createBodies, createDeployment, pollRevision, startOn, type ControlPlaneServer } from './control-plane-server.ts';

const revisionsOf = async (server: ControlPlaneServer, id: string, query = '') =>
  (await server.request('GET', `/v2/deployments/${id}/revisions${query}`)).body.resources as { id: string; status: string; source: string; source_revision_config: Record<string, unknown>; created_at: string }[];

describe.each(BACKENDS)('revisions on %s', (backend) => {
  let server: ControlPlaneServer;
  beforeAll(async () => {
    server = await startOn(backend, { phaseMs: 15 });
  });
  afterAll(() => server.close());

  it('creating a deployment creates its first revision, carrying its values', async () => {
    const created = await createDeployment(server, createBodies.gitforge());
    const revisions = await revisionsOf(server, created.id);
    expect(revisions).toHaveLength(1);
    expect(revisions[0]).toMatchObject({ id: created.latest_revision_id, source: 'gitforge', source_revision_config: created.source_revision_config });
    expect(Object.keys(revisions[0]!).sort()).toEqual(['created_at', 'id', 'source', 'source_revision_config', 'status', 'updated_at']);
  });

  it.each([
    ['source_revision_config.repo_ref', { source_revision_config: { repo_ref: 'develop' } }],
    ['source_revision_config.graph_config_path', { source_revision_config: { graph_config_path: 'agents/graph.json' } }],
    ['secrets', { secrets: [{ name: 'TOKEN', value: 'v2' }] }],
    ['empty secrets', { secrets: [] }],
    ['several triggers at once', { secrets: [{ name: 'A', value: 'b' }], source_revision_config: { repo_ref: 'x', graph_config_path: 'g.json' } }],
  ])('a PATCH with %s creates exactly one revision', async (_label, patch) => {
    const created = await createDeployment(server, createBodies.gitforge());
    const reply = await server.request('PATCH', `/v2/deployments/${created.id}`, patch);
    expect(reply.status, reply.text).toBe(200);
    const revisions = await revisionsOf(server, created.id);
    expect(revisions).toHaveLength(2);
    expect(reply.body.latest_revision_id).toBe(revisions[0]!.id);
    expect(reply.body.source_revision_config).toEqual(revisions[0]!.source_revision_config);
  });

  it('a PATCH with image_uri creates a revision for container sources', async () => {
    const created = await createDeployment(server, createBodies.internal_container());
    const reply = await server.request('PATCH', `/v2/deployments/${created.id}`, { source_revision_config: { image_uri: 'registry.example.com/agent:2' } });
    expect(reply.body.source_revision_config.image_uri).toBe('registry.example.com/agent:2');
    expect(await revisionsOf(server, created.id)).toHaveLength(2);
  });

  it.each([
    ['an empty body', {}],
    ['source_config.build_on_push', { source_config: { build_on_push: true } }],
    ['only null members', { source_revision_config: { repo_ref: null }, secrets: null, source_config: null }],
    ['a repeated immutable field', { source_config: { repo_url: 'https://example.com/org/agent' } }],
  ])('a PATCH with %s creates no revision', async (_label, patch) => {
    const created = await createDeployment(server, createBodies.gitforge());
    const reply = await server.request('PATCH', `/v2/deployments/${created.id}`, patch);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.latest_revision_id).toBe(created.latest_revision_id);
    expect(await revisionsOf(server, created.id)).toHaveLength(1);
  });

  it('a revision carries the latest values with the patch applied; the deployment shows the latest revision’s', async () => {
    const created = await createDeployment(server, createBodies.gitforge());
    const patched = await server.request('PATCH', `/v2/deployments/${created.id}`, { source_revision_config: { repo_ref: 'feature' } });
    const [latest, first] = await revisionsOf(server, created.id);
    expect(latest!.source_revision_config).toMatchObject({ repo_ref: 'feature', graph_config_path: 'graph.json' });
    expect(first!.source_revision_config).toMatchObject({ repo_ref: 'main', graph_config_path: 'graph.json' });
    expect(patched.body.source_revision_config).toEqual(latest!.source_revision_config);
    expect((await server.request('GET', `/v2/deployments/${created.id}`)).body.source_revision_config).toEqual(latest!.source_revision_config);
  });

  it('revision_source overrides the source of that revision only', async () => {
    const created = await createDeployment(server, createBodies.internal_source());
    const patched = await server.request('PATCH', `/v2/deployments/${created.id}`, {
      revision_source: 'internal_container',
      source_revision_config: { image_uri: 'registry.example.com/agent:9' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.source).toBe('internal_source');
    const [latest] = await revisionsOf(server, created.id);
    expect(latest).toMatchObject({ source: 'internal_container', source_revision_config: { image_uri: 'registry.example.com/agent:9', graph_config_path: null } });
    // The next revision without revision_source is of the deployment's source again, and starts
    // from the newest revision of that source.
    const back = await server.request('PATCH', `/v2/deployments/${created.id}`, { secrets: [] });
    expect(back.status, back.text).toBe(200);
    expect((await revisionsOf(server, created.id))[0]).toMatchObject({ source: 'internal_source', source_revision_config: { graph_config_path: 'graph.json', image_uri: null } });
  });

  it('progresses CREATING → … → DEPLOYED; the deployment becomes READY with it active, consistent all along', async () => {
    const created = await createDeployment(server, createBodies.internal_container());
    const seen: string[] = [];
    for (;;) {
      const deployment = (await server.request('GET', `/v2/deployments/${created.id}`)).body;
      const [revision] = await revisionsOf(server, created.id);
      expect(deployment.latest_revision_id).toBe(revision!.id);
      if (deployment.active_revision_id === null) expect(deployment.status).toBe('AWAITING_DATABASE');
      else expect(deployment.status).toBe('READY');
      if (seen.at(-1) !== revision!.status) seen.push(revision!.status);
      if (revision!.status === 'DEPLOYED') {
        const after = (await server.request('GET', `/v2/deployments/${created.id}`)).body;
        expect(after).toMatchObject({ status: 'READY', active_revision_id: revision!.id });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const order = ['CREATING', 'QUEUED', 'AWAITING_BUILD', 'BUILDING', 'AWAITING_DEPLOY', 'DEPLOYING', 'DEPLOYED'];
    expect(seen.map((s) => order.indexOf(s))).toEqual([...seen.map((s) => order.indexOf(s))].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe('DEPLOYED');
  });

  it.each([
    ['image_uri', 'internal_container', { image_uri: 'registry.example.com/fail-build:1' }, 'BUILD_FAILED'],
    ['image_uri', 'internal_container', { image_uri: 'registry.example.com/fail-deploy:1' }, 'DEPLOY_FAILED'],
    ['repo_ref', 'gitforge', { repo_ref: 'fail-build', graph_config_path: 'graph.json' }, 'BUILD_FAILED'],
    ['repo_ref', 'gitforge', { repo_ref: 'fail-deploy', graph_config_path: 'graph.json' }, 'DEPLOY_FAILED'],
  ] as const)('a marker in %s of a %s revision ends it %s', async (_field, source, config, failure) => {
    const created = await createDeployment(server, { ...createBodies[source](), source_revision_config: config });
    const seen = await pollRevision(server, created.id, created.latest_revision_id);
    expect(seen.at(-1)).toBe(failure);
    expect((await server.request('GET', `/v2/deployments/${created.id}`)).body).toMatchObject({ status: 'AWAITING_DATABASE', active_revision_id: null });
  });

  it('a newer deployed revision becomes active; the older stays DEPLOYED in the listing', async () => {
    const created = await createDeployment(server, createBodies.internal_container());
    await pollRevision(server, created.id, created.latest_revision_id);
    const patched = await server.request('PATCH', `/v2/deployments/${created.id}`, { source_revision_config: { image_uri: 'registry.example.com/agent:2' } });
    expect((await server.request('GET', `/v2/deployments/${created.id}`)).body.active_revision_id).toBe(created.latest_revision_id);
    await pollRevision(server, created.id, patched.body.latest_revision_id);
    expect((await server.request('GET', `/v2/deployments/${created.id}`)).body).toMatchObject({ status: 'READY', active_revision_id: patched.body.latest_revision_id });
  });

  it('a failed newer revision leaves the older one active', async () => {
    const created = await createDeployment(server, createBodies.internal_container());
    await pollRevision(server, created.id, created.latest_revision_id);
    const patched = await server.request('PATCH', `/v2/deployments/${created.id}`, { source_revision_config: { image_uri: 'x/fail-deploy:2' } });
    expect((await pollRevision(server, created.id, patched.body.latest_revision_id)).at(-1)).toBe('DEPLOY_FAILED');
    expect((await server.request('GET', `/v2/deployments/${created.id}`)).body).toMatchObject({ status: 'READY', active_revision_id: created.latest_revision_id });
  });

  it('lists revisions newest first, with limit, offset and a status filter', async () => {
    const created = await createDeployment(server, createBodies.internal_container());
    for (let i = 2; i <= 4; i += 1) {
      await server.request('PATCH', `/v2/deployments/${created.id}`, { source_revision_config: { image_uri: `registry.example.com/agent:${i}` } });
    }
    const all = await revisionsOf(server, created.id);
    expect(all.map((r) => r.source_revision_config.image_uri)).toEqual(['registry.example.com/agent:4', 'registry.example.com/agent:3', 'registry.example.com/agent:2', 'registry.example.com/agent:1']);
    expect([...all].sort((a, b) => b.created_at.localeCompare(a.created_at)).map((r) => r.id)).toEqual(all.map((r) => r.id));
    const page = await server.request('GET', `/v2/deployments/${created.id}/revisions?limit=2&offset=1`);
    expect(page.body).toEqual({ resources: [all[1], all[2]].map((r) => expect.objectContaining({ id: r!.id })), offset: 1 });
    await pollRevision(server, created.id, all[0]!.id, (s) => s === 'DEPLOYED');
    const deployed = await revisionsOf(server, created.id, '?status=DEPLOYED,SKIPPED,INTERRUPTED');
    expect(deployed.length).toBeGreaterThan(0);
    expect(deployed.every((r) => ['DEPLOYED', 'SKIPPED', 'INTERRUPTED'].includes(r.status))).toBe(true);
    expect((await server.request('GET', `/v2/deployments/${created.id}/revisions?status=NOPE`)).status).toBe(422);
    expect((await server.request('GET', `/v2/deployments/${created.id}/revisions?limit=0`)).status).toBe(422);
  });
});
