// Deployments over HTTP on both backends: create, read, list with filters and paging, delete, name
// conflicts, tracing projects, and the spec's error bodies.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createBodies, createDeployment, startOn, uniqueName, type ControlPlaneServer } from './control-plane-server.ts';

describe.each(BACKENDS)('deployments on %s', (backend) => {
  let server: ControlPlaneServer;
  beforeAll(async () => {
    server = await startOn(backend);
  });
  afterAll(() => server.close());

  it('creates a deployment: 201 with id, latest_revision_id and every Deployment field', async () => {
    const body = createBodies.gitforge();
    const reply = await server.request('POST', '/v2/deployments', body);
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      name: body.name,
      source: 'gitforge',
      tenant_id: server.tenantId,
      status: 'AWAITING_DATABASE',
      active_revision_id: null,
      secrets: body.secrets,
      source_config: { ...body.source_config, resource_spec: null, listener_id: null, listener_config: null },
      source_revision_config: { repo_ref: 'main', graph_config_path: 'graph.json', image_uri: null, source_tarball_path: null },
    });
    expect(reply.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.body.latest_revision_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.body.source_revision_config.repo_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(reply.body.source_config.custom_url).toMatch(/^https:\/\//);
    expect(Date.parse(reply.body.created_at)).not.toBeNaN();
    expect(reply.body.updated_at).toBe(reply.body.created_at);
    const read = await server.request('GET', `/v2/deployments/${reply.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(reply.body);
  });

  it('creates a tracing project of the same name, and deletes it only when asked', async () => {
    const kept = await createDeployment(server, createBodies.internal_container());
    expect(server.tracing.has(server.tenantId, kept.name)).toBe(true);
    expect((await server.request('DELETE', `/v2/deployments/${kept.id}`)).status).toBe(204);
    expect(server.tracing.has(server.tenantId, kept.name)).toBe(true);
    const dropped = await createDeployment(server, createBodies.internal_container());
    expect((await server.request('DELETE', `/v2/deployments/${dropped.id}?delete_tracing_project=true`)).status).toBe(204);
    expect(server.tracing.has(server.tenantId, dropped.name)).toBe(false);
  });

  it('refuses a name the tenant already uses with 409, and a name whose tracing project exists with 409', async () => {
    const first = await createDeployment(server, createBodies.internal_container());
    const again = await server.request('POST', '/v2/deployments', createBodies.internal_container(first.name));
    expect(again.status).toBe(409);
    expect(typeof again.body.detail).toBe('string');
    const orphanName = uniqueName('orphan');
    await server.tracing.createProject(server.tenantId, orphanName);
    const clash = await server.request('POST', '/v2/deployments', createBodies.internal_container(orphanName));
    expect(clash.status).toBe(409);
    const listed = await server.request('GET', `/v2/deployments?name_contains=${orphanName}`);
    expect(listed.body.resources).toEqual([]);
  });

  it('deletes: 204 with no body, then 404 on every endpoint of it', async () => {
    const created = await createDeployment(server, createBodies.internal_source());
    const deleted = await server.request('DELETE', `/v2/deployments/${created.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const notFound = { detail: `Deployment ID ${created.id} not found.` };
    for (const [method, path, body] of [
      ['GET', `/v2/deployments/${created.id}`],
      ['PATCH', `/v2/deployments/${created.id}`, { secrets: [] }],
      ['DELETE', `/v2/deployments/${created.id}`],
      ['GET', `/v2/deployments/${created.id}/revisions`],
      ['GET', `/v2/deployments/${created.id}/revisions/${created.latest_revision_id}`],
      ['POST', `/v2/deployments/${created.id}/upload-url`],
    ] as const) {
      const reply = await server.request(method, path, body);
      expect(reply.status, `${method} ${path}`).toBe(404);
      expect(reply.body, `${method} ${path}`).toEqual(notFound);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('answers 404 "Revision ID <id> not found." for an unknown revision of a known deployment', async () => {
    const created = await createDeployment(server, createBodies.internal_container());
    const revisionId = randomUUID();
    const reply = await server.request('GET', `/v2/deployments/${created.id}/revisions/${revisionId}`);
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ detail: `Revision ID ${revisionId} not found.` });
  });

  it('answers 422 with loc ["path", ...] for ids that are not UUIDs', async () => {
    for (const [path, param] of [
      ['/v2/deployments/not-a-uuid', 'deployment_id'],
      ['/v2/deployments/123/revisions', 'deployment_id'],
      [`/v2/deployments/${randomUUID()}/revisions/nope`, 'revision_id'],
    ] as const) {
      const reply = await server.request('GET', path);
      expect(reply.status, path).toBe(422);
      expect(reply.body.detail[0]).toMatchObject({ loc: ['path', param], type: expect.any(String), msg: expect.any(String) });
    }
    expect((await server.request('DELETE', '/v2/deployments/zzz')).status).toBe(422);
    expect((await server.request('PATCH', '/v2/deployments/zzz', {})).status).toBe(422);
  });

  it('answers 422 with loc ["body", field] when a required create field is missing', async () => {
    for (const field of ['name', 'source', 'source_config', 'source_revision_config', 'secrets']) {
      const body: Record<string, unknown> = createBodies.internal_container();
      delete body[field];
      const reply = await server.request('POST', '/v2/deployments', body);
      expect(reply.status, field).toBe(422);
      expect(Array.isArray(reply.body.detail)).toBe(true);
      expect(reply.body.detail.some((issue: { loc: unknown[] }) => issue.loc[0] === 'body' && JSON.stringify(issue.loc).includes(field))).toBe(true);
    }
    const empty = await server.request('POST', '/v2/deployments');
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].loc).toEqual(['body']);
  });

  it('answers malformed JSON with 400 and an oversized body with 413, both {detail}', async () => {
    const malformed = await server.request('POST', '/v2/deployments', '{"name": ');
    expect(malformed.status).toBe(400);
    expect(typeof malformed.body.detail).toBe('string');
    const huge = await server.request('POST', '/v2/deployments', { ...createBodies.internal_container(), padding: 'x'.repeat(1024 * 1024 + 1) });
    expect(huge.status).toBe(413);
    expect(typeof huge.body.detail).toBe('string');
  });

  describe('listing', () => {
    const prefix = uniqueName('list');
    const created: any[] = [];
    beforeAll(async () => {
      created.push(await createDeployment(server, { ...createBodies.gitforge(`${prefix}-a`), source_config: { ...createBodies.gitforge().source_config, deployment_type: 'prod' } }));
      created.push(await createDeployment(server, { ...createBodies.internal_container(`${prefix}-b`), image_version: '1.2.3' }));
      created.push(await createDeployment(server, createBodies.internal_source(`${prefix}-C`)));
    });

    it('returns {resources, offset}, newest first', async () => {
      const reply = await server.request('GET', `/v2/deployments?name_contains=${prefix}`);
      expect(reply.status).toBe(200);
      expect(reply.body.offset).toBe(0);
      expect(reply.body.resources.map((d: { id: string }) => d.id)).toEqual(created.map((d) => d.id).reverse());
    });

    it('filters by name_contains (ignoring case), deployment_ids, image_version, deployment_type and status', async () => {
      const ids = (reply: { body: { resources: { id: string }[] } }) => reply.body.resources.map((d) => d.id);
      expect(ids(await server.request('GET', `/v2/deployments?name_contains=${prefix.toUpperCase()}-c`))).toEqual([created[2].id]);
      expect(ids(await server.request('GET', `/v2/deployments?deployment_ids=${created[0].id},${created[2].id}`))).toEqual([created[2].id, created[0].id]);
      expect(ids(await server.request('GET', `/v2/deployments?name_contains=${prefix}&image_version=1.2.3`))).toEqual([created[1].id]);
      expect(ids(await server.request('GET', `/v2/deployments?name_contains=${prefix}&deployment_type=prod`))).toEqual([created[0].id]);
      expect(ids(await server.request('GET', `/v2/deployments?name_contains=${prefix}&status=UNUSED`))).toEqual([]);
    });

    it('pages with limit and offset', async () => {
      const page = await server.request('GET', `/v2/deployments?name_contains=${prefix}&limit=1&offset=1`);
      expect(page.body).toEqual({ resources: [expect.objectContaining({ id: created[1].id })], offset: 1 });
      const beyond = await server.request('GET', `/v2/deployments?name_contains=${prefix}&offset=10`);
      expect(beyond.body).toEqual({ resources: [], offset: 10 });
    });

    it('refuses bad paging and filter values with 422 and loc ["query", name]', async () => {
      for (const [query, param] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=ten', 'limit'],
        ['offset=-1', 'offset'],
        ['deployment_ids=x', 'deployment_ids'],
        ['deployment_type=huge', 'deployment_type'],
        ['status=SLEEPING', 'status'],
      ]) {
        const reply = await server.request('GET', `/v2/deployments?${query}`);
        expect(reply.status, query).toBe(422);
        expect(reply.body.detail[0].loc, query).toEqual(['query', param]);
      }
      expect((await server.request('GET', '/v2/deployments?limit=100')).status).toBe(200);
    });

    it('lists 20 by default', async () => {
      const many = uniqueName('many');
      for (let i = 0; i < 21; i += 1) await createDeployment(server, createBodies.internal_container(`${many}-${i}`));
      const reply = await server.request('GET', `/v2/deployments?name_contains=${many}`);
      expect(reply.body.resources).toHaveLength(20);
    });
  });
});
