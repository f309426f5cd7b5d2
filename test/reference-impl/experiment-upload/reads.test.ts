// Reads of datasets and sessions, platform-made datasets (rules 6 and 7), tracing projects,
// authentication and the docs, over HTTP on both stores.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../../schemas/index.ts';
import { uniqueName, upload } from './bodies.ts';
import { BACKENDS, sendRequest, startOn, type ExperimentUploadServer } from './experiment-upload-server.ts';

const UPLOAD = '/api/v1/datasets/upload-experiment';

describe.each(BACKENDS)('tracing reads (%s store)', (backend) => {
  let server: ExperimentUploadServer;
  let otherTenant: string;
  beforeAll(async () => {
    otherTenant = randomUUID();
    server = await startOn(backend, { apiKeys: [{ key: `reads-${randomUUID()}`, tenants: [randomUUID()] }, { key: `multi-${randomUUID()}`, tenants: [randomUUID(), otherTenant] }] });
  });
  afterAll(async () => server.close());

  it('reads back an uploaded dataset and experiment by id, and lists them by name', async () => {
    const body = upload();
    const { dataset, experiment } = (await server.request('POST', UPLOAD, body)).body;
    const readDataset = await server.request('GET', `/api/v1/datasets/${dataset.id.toUpperCase()}`);
    expect(readDataset.status).toBe(200);
    expect(readDataset.body).toEqual(dataset);
    const readSession = await server.request('GET', `/api/v1/sessions/${experiment.id}`);
    expect(readSession.body).toMatchObject({ id: experiment.id, name: body.experiment_name, reference_dataset_id: dataset.id });
    const byName = await server.request('GET', `/api/v1/datasets?name=${encodeURIComponent(String(body.dataset_name))}`);
    expect(byName.body.map((d: { id: string }) => d.id)).toEqual([dataset.id]);
    const sessions = await server.request('GET', `/api/v1/sessions?reference_dataset=${dataset.id}`);
    expect(sessions.body.map((s: { id: string }) => s.id)).toEqual([experiment.id]);
  });

  it('answers 404 naming an unknown id and 422 for a non-UUID id', async () => {
    const id = randomUUID();
    for (const path of ['datasets', 'sessions']) {
      const missing = await server.request('GET', `/api/v1/${path}/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body.detail).toContain(id);
      const bad = await server.request('GET', `/api/v1/${path}/not-a-uuid`);
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['path', path === 'datasets' ? 'dataset_id' : 'session_id']);
    }
    const badQuery = await server.request('GET', '/api/v1/sessions?limit=0&reference_free=maybe&reference_dataset=x');
    expect(badQuery.status).toBe(422);
    expect(badQuery.body.detail.map((d: { loc: unknown }) => d.loc)).toEqual(
      expect.arrayContaining([['query', 'limit'], ['query', 'reference_free'], ['query', 'reference_dataset']]),
    );
  });

  it('creates platform datasets that are not externally managed and refuses uploads to them by id or name', async () => {
    const name = uniqueName('internal');
    const created = await server.request('POST', '/api/v1/datasets', { name, description: 'made here' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name, description: 'made here', externally_managed: false, example_count: 0, session_count: 0 });
    expect(validate('UploadedDataset', created.body)).toEqual({ ok: true });
    const duplicate = await server.request('POST', '/api/v1/datasets', { name });
    expect(duplicate.status).toBe(409);

    for (const target of [{ dataset_id: created.body.id }, { dataset_name: name }, { dataset_id: created.body.id, dataset_name: name }]) {
      const body: Record<string, unknown> = { ...upload(), dataset_name: undefined, ...target };
      const refused = await server.request('POST', UPLOAD, body);
      expect(refused.status, JSON.stringify(target)).toBe(400);
      expect(refused.body.detail).toMatch(/not externally managed/);
      const session = await server.request('GET', `/api/v1/sessions?name=${encodeURIComponent(String(body.experiment_name))}`);
      expect(session.body).toEqual([]);
    }
    const after = await server.request('GET', `/api/v1/datasets/${created.body.id}`);
    expect(after.body).toEqual(created.body);

    for (const bad of [{}, { name: '' }, { name: 7 }, { name: 'x', description: 3 }, []]) {
      expect((await server.request('POST', '/api/v1/datasets', bad)).status, JSON.stringify(bad)).toBe(422);
    }
  });

  it('shows tracing projects created through ctx.tracingProjects as sessions, and refuses a taken name', async () => {
    const projects = server.ctx.tracingProjects!;
    const name = uniqueName('deployment');
    await projects.createProject(server.tenantId, name);
    const listed = await server.request('GET', `/api/v1/sessions?name=${name}`);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({ name, reference_dataset_id: null, tenant_id: server.tenantId, trace_tier: 'longlived' });
    expect(validate('UploadedExperiment', listed.body[0])).toEqual({ ok: true });
    const projectsOnly = await server.request('GET', '/api/v1/sessions?reference_free=true');
    expect(projectsOnly.body.map((s: { name: string }) => s.name)).toContain(name);
    expect(projectsOnly.body.every((s: { reference_dataset_id: unknown }) => s.reference_dataset_id === null)).toBe(true);

    await expect(projects.createProject(server.tenantId, name)).rejects.toMatchObject({ statusCode: 409 });
    const clash = await server.request('POST', UPLOAD, upload({ experiment_name: name }));
    expect(clash.status).toBe(409);

    // Another tenant may use the same name.
    await projects.createProject(otherTenant, name);
    await projects.deleteProject(server.tenantId, name);
    expect((await server.request('GET', `/api/v1/sessions?name=${name}`)).body).toEqual([]);
    const multiKey = server.ctx.auth.grants[1]!.key;
    const other = await sendRequest(server.url, 'GET', `/api/v1/sessions?name=${name}`, undefined, { 'x-api-key': multiKey, 'x-tenant-id': otherTenant });
    expect(other.body).toHaveLength(1);
  });

  it('keeps tenants apart', async () => {
    const { dataset } = (await server.request('POST', UPLOAD, upload())).body;
    const multiKey = server.ctx.auth.grants[1]!.key;
    const other = await sendRequest(server.url, 'GET', `/api/v1/datasets/${dataset.id}`, undefined, { 'x-api-key': multiKey, 'x-tenant-id': otherTenant });
    expect(other.status).toBe(404);
    const noTenant = await sendRequest(server.url, 'GET', '/api/v1/datasets', undefined, { 'x-api-key': multiKey });
    expect(noTenant.status).toBe(403);
  });

  it('works for a configured tenant id that is not a UUID', async () => {
    const named = await startOn(backend, { apiKeys: [{ key: `named-${randomUUID()}`, tenants: ['workspace-a'] }] });
    try {
      const reply = await named.request('POST', UPLOAD, upload());
      expect(reply.status).toBe(200);
      expect(reply.body.dataset.tenant_id).toBe('workspace-a');
      expect((await named.request('GET', `/api/v1/sessions/${reply.body.experiment.id}`)).body.tenant_id).toBe('workspace-a');
    } finally {
      await named.close();
    }
  });

  it('refuses requests without a valid x-api-key with 401, before reading the body', async () => {
    for (const headers of [{}, { 'x-api-key': 'wrong' }] as Record<string, string>[]) {
      const reply = await sendRequest(server.url, 'POST', UPLOAD, upload(), headers);
      expect(reply.status).toBe(401);
      expect(typeof reply.body.detail).toBe('string');
    }
    const huge = await sendRequest(server.url, 'POST', UPLOAD, 'x'.repeat(11 * 1024 * 1024), {});
    expect(huge.status).toBe(401);
  });

  it('deletes datasets with their experiments, and sessions', async () => {
    const { dataset, experiment } = (await server.request('POST', UPLOAD, upload())).body;
    expect((await server.request('DELETE', `/api/v1/datasets/${dataset.id}`)).status).toBe(204);
    expect((await server.request('GET', `/api/v1/sessions/${experiment.id}`)).status).toBe(404);
    expect((await server.request('DELETE', `/api/v1/datasets/${dataset.id}`)).status).toBe(404);
    const second = (await server.request('POST', UPLOAD, upload())).body;
    expect((await server.request('DELETE', `/api/v1/sessions/${second.experiment.id}`)).status).toBe(204);
    expect((await server.request('GET', `/api/v1/datasets/${second.dataset.id}`)).body.session_count).toBe(0);
  });

  it('serves /openapi.json with the upload path and schemas, and a /docs page', async () => {
    const spec = await sendRequest(server.url, 'GET', '/openapi.json', undefined, {});
    expect(spec.status).toBe(200);
    expect(spec.body.paths['/api/v1/datasets/upload-experiment'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ExperimentUploadRequest',
    );
    expect(spec.body.components.schemas.ExperimentUploadRequest).toBeDefined();
    const docs = await sendRequest(server.url, 'GET', '/docs', undefined, {});
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/text\/html/);
    expect(docs.text).toContain('/api/v1/datasets/upload-experiment');
  });
});
