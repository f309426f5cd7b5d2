// The deployment rules of spec 2.1-2.4 over HTTP on both backends: immutable fields, which fields
// apply to which source, graph_config_path, tags and build_on_push, resource specs. A refused
// request changes nothing. (Test servers' phases are long, so revisions do not move while a test
// compares before and after.)
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createBodies, createDeployment, startOn, type ControlPlaneServer } from './control-plane-server.ts';

/** Sends a PATCH expected to be refused with `status`, and checks the deployment and its revisions did not change. */
async function expectRefusedPatch(server: ControlPlaneServer, id: string, body: unknown, status: number, detailMentions?: string) {
  const before = await server.request('GET', `/v2/deployments/${id}`);
  const revisionsBefore = await server.request('GET', `/v2/deployments/${id}/revisions`);
  const reply = await server.request('PATCH', `/v2/deployments/${id}`, body);
  expect(reply.status, reply.text).toBe(status);
  if (status === 400) expect(typeof reply.body.detail).toBe('string');
  if (detailMentions) expect(JSON.stringify(reply.body.detail)).toContain(detailMentions);
  expect((await server.request('GET', `/v2/deployments/${id}`)).body).toEqual(before.body);
  expect((await server.request('GET', `/v2/deployments/${id}/revisions`)).body.resources.map((r: { id: string }) => r.id)).toEqual(
    revisionsBefore.body.resources.map((r: { id: string }) => r.id),
  );
  return reply;
}

async function expectRefusedCreate(server: ControlPlaneServer, body: { name: string; [field: string]: unknown }, status: number, detailMentions?: string) {
  const reply = await server.request('POST', '/v2/deployments', body);
  expect(reply.status, reply.text).toBe(status);
  if (detailMentions) expect(JSON.stringify(reply.body.detail)).toContain(detailMentions);
  expect((await server.request('GET', `/v2/deployments?name_contains=${body.name}`)).body.resources).toEqual([]);
  expect(server.tracing.has(server.tenantId, body.name)).toBe(false);
  return reply;
}

const revisionCount = async (server: ControlPlaneServer, id: string) =>
  (await server.request('GET', `/v2/deployments/${id}/revisions`)).body.resources.length as number;

describe.each(BACKENDS)('deployment rules on %s (hosted)', (backend) => {
  let server: ControlPlaneServer;
  beforeAll(async () => {
    server = await startOn(backend);
  });
  afterAll(() => server.close());

  it('refuses a PATCH changing name or source with 400 and accepts one repeating them', async () => {
    const created = await createDeployment(server, createBodies.gitforge());
    await expectRefusedPatch(server, created.id, { name: `${created.name}-renamed` }, 400, 'name');
    await expectRefusedPatch(server, created.id, { source: 'internal_source' }, 400, 'source');
    const same = await server.request('PATCH', `/v2/deployments/${created.id}`, { name: created.name, source: 'gitforge' });
    expect(same.status).toBe(200);
    expect(same.body.name).toBe(created.name);
  });

  it.each([
    ['integration_id', () => randomUUID()],
    ['repo_url', () => 'https://example.com/other/repo'],
    ['deployment_type', () => 'prod'],
  ])('refuses changing the immutable source_config.%s and accepts repeating it', async (field, value) => {
    const created = await createDeployment(server, createBodies.gitforge());
    await expectRefusedPatch(server, created.id, { source_config: { [field]: value() } }, 400, field);
    const same = await server.request('PATCH', `/v2/deployments/${created.id}`, { source_config: { [field]: created.source_config[field] } });
    expect(same.status).toBe(200);
    expect(await revisionCount(server, created.id)).toBe(1);
  });

  it('refuses a PATCH mixing an immutable change with revision triggers, creating nothing', async () => {
    const created = await createDeployment(server, createBodies.gitforge());
    await expectRefusedPatch(
      server,
      created.id,
      { source_config: { repo_url: 'https://example.com/x' }, secrets: [{ name: 'A', value: 'b' }], source_revision_config: { repo_ref: 'dev' } },
      400,
      'repo_url',
    );
  });

  it('refuses external_container on a hosted control plane with a clear 400', async () => {
    await expectRefusedCreate(server, createBodies.external_container(), 400, 'self-hosted');
  });

  it.each([
    ['internal_container', { source_config: { repo_url: 'https://example.com/r' } }, 'repo_url'],
    ['internal_container', { source_config: { build_on_push: true } }, 'build_on_push'],
    ['internal_source', { source_config: { integration_id: randomUUID() } }, 'integration_id'],
    ['gitforge', { source_config: { listener_id: randomUUID() } }, 'listener_id'],
    ['gitforge', { source_config: { listener_config: { cluster_namespace: 'x' } } }, 'listener_config'],
    ['gitforge', { source_config: { resource_spec: { cpu: 1 } } }, 'resource_spec'],
    ['internal_container', { source_config: { install_command: 'npm ci' } }, 'install_command'],
    ['internal_container', { source_config: { build_command: 'npm run build' } }, 'build_command'],
    ['internal_source', { source_config: { custom_url: 'https://mine.example.com' } }, 'custom_url'],
    ['gitforge', { source_config: { custom_url: 'https://mine.example.com' } }, 'custom_url'],
    ['internal_container', { source_revision_config: { repo_ref: 'main' } }, 'repo_ref'],
    ['internal_container', { source_revision_config: { graph_config_path: 'graph.json' } }, 'graph_config_path'],
    ['gitforge', { source_revision_config: { repo_ref: 'main', graph_config_path: 'graph.json', image_uri: 'x/y:1' } }, 'image_uri'],
    ['internal_source', { source_revision_config: { graph_config_path: 'graph.json', source_tarball_path: 'anything.tar.gz' } }, 'source_tarball_path'],
    ['internal_container', { secret_references: [{ name: 'A', secret_name: 'b', secret_key: 'c' }] }, 'secret_references'],
  ] as const)('refuses creating a %s deployment with %j (400 naming %s)', async (source, override, field) => {
    const base = createBodies[source]();
    const body = {
      ...base,
      ...override,
      source_config: { ...base.source_config, ...('source_config' in override ? override.source_config : {}) },
      source_revision_config: { ...base.source_revision_config, ...('source_revision_config' in override ? override.source_revision_config : {}) },
    };
    await expectRefusedCreate(server, body, 400, field);
  });

  it('accepts install_command and build_command for buildable sources', async () => {
    for (const source of ['gitforge', 'internal_source'] as const) {
      const base = createBodies[source]();
      const created = await createDeployment(server, { ...base, source_config: { ...base.source_config, install_command: 'npm ci', build_command: 'npm run build' } });
      expect(created.source_config).toMatchObject({ install_command: 'npm ci', build_command: 'npm run build' });
    }
  });

  it('requires graph_config_path on create for gitforge and internal_source', async () => {
    for (const source of ['gitforge', 'internal_source'] as const) {
      const base = createBodies[source]();
      await expectRefusedCreate(server, { ...base, source_revision_config: { ...base.source_revision_config, graph_config_path: null } }, 400, 'graph_config_path');
    }
  });

  it('refuses a tag repo_ref with build_on_push true on create', async () => {
    const base = createBodies.gitforge();
    await expectRefusedCreate(
      server,
      { ...base, source_config: { ...base.source_config, build_on_push: true }, source_revision_config: { repo_ref: 'refs/tags/v1', graph_config_path: 'graph.json' } },
      400,
      'build_on_push',
    );
    const allowed = await createDeployment(server, { ...createBodies.gitforge(), source_revision_config: { repo_ref: 'refs/tags/v1', graph_config_path: 'graph.json' } });
    expect(allowed.source_revision_config.repo_ref).toBe('refs/tags/v1');
  });

  it('refuses a PATCH that makes tag + build_on_push true by changing only one of the two', async () => {
    const onTag = await createDeployment(server, { ...createBodies.gitforge(), source_revision_config: { repo_ref: 'refs/tags/v1', graph_config_path: 'graph.json' } });
    await expectRefusedPatch(server, onTag.id, { source_config: { build_on_push: true } }, 400, 'build_on_push');
    const base = createBodies.gitforge();
    const onBranch = await createDeployment(server, { ...base, source_config: { ...base.source_config, build_on_push: true } });
    await expectRefusedPatch(server, onBranch.id, { source_revision_config: { repo_ref: 'refs/tags/v2' } }, 400, 'build_on_push');
    await expectRefusedPatch(server, onBranch.id, { source_config: { build_on_push: true }, source_revision_config: { repo_ref: 'refs/tags/v2' } }, 400);
    const both = await server.request('PATCH', `/v2/deployments/${onBranch.id}`, { source_config: { build_on_push: false }, source_revision_config: { repo_ref: 'refs/tags/v2' } });
    expect(both.status).toBe(200);
    expect(both.body.source_revision_config.repo_ref).toBe('refs/tags/v2');
  });

  it('keeps custom_url of gitforge read-only: repeating it is fine, changing it is refused', async () => {
    const created = await createDeployment(server, createBodies.gitforge());
    await expectRefusedPatch(server, created.id, { source_config: { custom_url: 'https://mine.example.com' } }, 400, 'custom_url');
    expect((await server.request('PATCH', `/v2/deployments/${created.id}`, { source_config: { custom_url: created.source_config.custom_url } })).status).toBe(200);
  });

  it('refuses revision_source external_container (not in its enum) with 422', async () => {
    const created = await createDeployment(server, createBodies.internal_container());
    const reply = await expectRefusedPatch(server, created.id, { revision_source: 'external_container' }, 422);
    expect(reply.body.detail[0].loc.slice(0, 2)).toEqual(['body', 'revision_source']);
  });

  it('refuses schema violations with 422 and loc under "body"', async () => {
    const created = await createDeployment(server, createBodies.internal_container());
    const reply = await expectRefusedPatch(server, created.id, { secrets: [{ name: 1 }] }, 422);
    expect(reply.body.detail[0].loc.slice(0, 2)).toEqual(['body', 'secrets']);
    const wrongType = await expectRefusedCreate(server, { ...createBodies.internal_container(), source: 'ftp' }, 422);
    expect(wrongType.body.detail[0].loc).toContain('source');
  });
});

describe.each(BACKENDS)('deployment rules on %s (self-hosted)', (backend) => {
  let server: ControlPlaneServer;
  beforeAll(async () => {
    server = await startOn(backend, { mode: 'self-hosted' });
  });
  afterAll(() => server.close());

  it('serves under /api-host and refuses gitforge, on create and as revision_source', async () => {
    expect(server.url.endsWith('/api-host')).toBe(true);
    await expectRefusedCreate(server, createBodies.gitforge(), 400, 'hosted');
    const created = await createDeployment(server, createBodies.internal_source());
    await expectRefusedPatch(server, created.id, { revision_source: 'gitforge', source_revision_config: { repo_ref: 'main' } }, 400, 'hosted');
  });

  it('accepts external_container with listener, namespace, custom_url and secret_references', async () => {
    const base = createBodies.external_container();
    const created = await createDeployment(server, {
      ...base,
      source_config: { ...base.source_config, custom_url: 'https://agents.example.com' },
      secret_references: [{ name: 'DB_PASSWORD', secret_name: 'db', secret_key: 'password' }],
    });
    expect(created.source_config).toMatchObject({ listener_id: base.source_config.listener_id, listener_config: { cluster_namespace: 'agents' }, custom_url: 'https://agents.example.com' });
    expect(created.secret_references).toEqual([{ name: 'DB_PASSWORD', secret_name: 'db', secret_key: 'password' }]);
    const patched = await server.request('PATCH', `/v2/deployments/${created.id}`, { source_config: { custom_url: 'https://elsewhere.example.com' } });
    expect(patched.status).toBe(200);
    expect(patched.body.source_config.custom_url).toBe('https://elsewhere.example.com');
  });

  it('refuses changing listener_id or listener_config.cluster_namespace, accepts repeating them', async () => {
    const created = await createDeployment(server, createBodies.external_container());
    await expectRefusedPatch(server, created.id, { source_config: { listener_id: randomUUID() } }, 400, 'listener_id');
    await expectRefusedPatch(server, created.id, { source_config: { listener_config: { cluster_namespace: 'other' } } }, 400, 'cluster_namespace');
    const same = await server.request('PATCH', `/v2/deployments/${created.id}`, {
      source_config: { listener_id: created.source_config.listener_id, listener_config: { cluster_namespace: 'agents' } },
    });
    expect(same.status).toBe(200);
    expect(same.body.source_config.listener_config).toEqual({ cluster_namespace: 'agents' });
  });

  it('rounds CPU values to one decimal and fills every default of spec 2.4 from the rounded values', async () => {
    const base = createBodies.external_container();
    const created = await createDeployment(server, {
      ...base,
      source_config: {
        ...base.source_config,
        resource_spec: { min_scale: 1, max_scale: 3, cpu: 0.26, memory_mb: 512, cache_cpu: 0.44, cache_memory_mb: 256, db_cpu: 1.05, db_memory_mb: 1000 },
      },
    });
    expect(created.source_config.resource_spec).toMatchObject({
      cpu: 0.3,
      cpu_limit: 0.6,
      memory_mb: 512,
      memory_limit_mb: 1024,
      queue_min_scale: 1,
      queue_max_scale: 3,
      queue_cpu: 0.3,
      queue_cpu_limit: 0.6,
      queue_memory_mb: 512,
      queue_memory_limit_mb: 1024,
      cache_cpu: 0.4,
      cache_cpu_limit: 0.8,
      cache_memory_mb: 256,
      cache_memory_limit_mb: 256,
      db_cpu: 1.1,
      db_cpu_limit: 2.2,
      db_memory_mb: 1000,
      db_memory_limit_mb: 2000,
    });
  });

  it('keeps explicit limits, rounded', async () => {
    const base = createBodies.external_container();
    const created = await createDeployment(server, { ...base, source_config: { ...base.source_config, resource_spec: { cpu: 1, cpu_limit: 1.54, memory_mb: 100, memory_limit_mb: 150 } } });
    expect(created.source_config.resource_spec).toMatchObject({ cpu: 1, cpu_limit: 1.5, memory_limit_mb: 150 });
  });

  it.each([
    [{ cpu: 8.04 }, null],
    [{ cpu: 8.06 }, 'cpu'],
    [{ cpu: 0.06 }, null],
    [{ cpu: 0.04 }, 'cpu'],
    [{ cpu: 1, cpu_limit: 16.04 }, null],
    [{ cpu: 1, cpu_limit: 16.2 }, 'cpu_limit'],
    [{ queue_cpu: 9 }, 'queue_cpu'],
    [{ cache_cpu: 0.01 }, 'cache_cpu'],
    [{ cache_cpu: 1, cache_cpu_limit: 17 }, 'cache_cpu_limit'],
  ])('checks CPU bounds after rounding: %j → %s', async (spec, refusedField) => {
    const base = createBodies.external_container();
    const body = { ...base, source_config: { ...base.source_config, resource_spec: spec } };
    if (refusedField === null) {
      await createDeployment(server, body);
      return;
    }
    const reply = await expectRefusedCreate(server, body, 422);
    expect(reply.body.detail[0].loc).toEqual(['body', 'source_config', 'resource_spec', refusedField]);
  });

  it('replaces resource_spec wholesale on PATCH and creates a revision', async () => {
    const created = await createDeployment(server, createBodies.external_container());
    const patched = await server.request('PATCH', `/v2/deployments/${created.id}`, { source_config: { resource_spec: { memory_mb: 300 } } });
    expect(patched.status).toBe(200);
    expect(patched.body.source_config.resource_spec).toEqual({ memory_mb: 300, memory_limit_mb: 600, queue_memory_mb: 300, queue_memory_limit_mb: 600 });
    expect(patched.body.latest_revision_id).not.toBe(created.latest_revision_id);
    expect(await revisionCount(server, created.id)).toBe(2);
  });

  it('refuses resource_spec on other sources, also on PATCH', async () => {
    const created = await createDeployment(server, createBodies.internal_container());
    await expectRefusedPatch(server, created.id, { source_config: { resource_spec: { cpu: 1 } } }, 400, 'resource_spec');
  });
});
