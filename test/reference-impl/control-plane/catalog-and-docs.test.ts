// Integrations, listeners, /docs and /openapi.json, in both modes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOn, type ControlPlaneServer } from './control-plane-server.ts';

/** Every operation of spec 4.1 (and the upload target), as OpenAPI paths. */
const SPEC_OPERATIONS = [
  ['post', '/v2/deployments'],
  ['get', '/v2/deployments'],
  ['get', '/v2/deployments/{deployment_id}'],
  ['patch', '/v2/deployments/{deployment_id}'],
  ['delete', '/v2/deployments/{deployment_id}'],
  ['get', '/v2/deployments/{deployment_id}/revisions'],
  ['get', '/v2/deployments/{deployment_id}/revisions/{revision_id}'],
  ['post', '/deployments/{deployment_id}/upload-url'],
  ['post', '/v2/deployments/{deployment_id}/upload-url'],
  ['get', '/v1/integrations/gitforge/install'],
  ['get', '/v2/listeners'],
] as const;

describe('hosted control plane', () => {
  let server: ControlPlaneServer;
  beforeAll(async () => {
    server = await startOn('memory');
  });
  afterAll(() => server.close());

  it('lists one gitforge integration as [{id, installation_id, name}], the same on every call', async () => {
    const reply = await server.request('GET', '/v1/integrations/gitforge/install');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([{ id: expect.stringMatching(/^[0-9a-f-]{36}$/), installation_id: expect.any(Number), name: expect.any(String) }]);
    expect((await server.request('GET', '/v1/integrations/gitforge/install')).body).toEqual(reply.body);
  });

  it('lists no listeners, as {resources, offset}', async () => {
    expect((await server.request('GET', '/v2/listeners')).body).toEqual({ resources: [], offset: 0 });
  });

  it('serves /openapi.json listing every endpoint with the schemas, and an HTML /docs page, without a key', async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
    expect(document.openapi).toMatch(/^3\./);
    for (const [method, path] of SPEC_OPERATIONS) expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    for (const name of ['Deployment', 'HTTPValidationError']) expect(document.components.schemas[name], name).toBeDefined();
    const refs = JSON.stringify(document.paths).match(/#\/components\/schemas\/[A-Za-z0-9_]+/g) ?? [];
    for (const ref of new Set(refs)) expect(document.components.schemas[ref.split('/').pop()!], ref).toBeDefined();
    const docs = await fetch(`${server.url}/docs`);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await docs.text();
    for (const [, path] of SPEC_OPERATIONS) expect(html).toContain(path);
  });

  it('answers an unknown path with 404 {detail}', async () => {
    const reply = await server.request('GET', '/v3/nothing');
    expect(reply.status).toBe(404);
    expect(typeof reply.body.detail).toBe('string');
  });
});

describe('self-hosted control plane', () => {
  let server: ControlPlaneServer;
  beforeAll(async () => {
    server = await startOn('memory', { mode: 'self-hosted' });
  });
  afterAll(() => server.close());

  it('serves everything under /api-host and nothing at the root', async () => {
    expect(new URL(server.url).pathname).toBe('/api-host');
    expect((await server.request('GET', '/v2/deployments')).status).toBe(200);
    const root = server.url.replace(/\/api-host$/, '');
    expect((await fetch(`${root}/v2/deployments`, { headers: { 'x-api-key': server.apiKey } })).status).toBe(404);
    expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
    expect((await fetch(`${server.url}/docs`)).status).toBe(200);
  });

  it('lists a cluster listener, stable across calls, and no gitforge integration', async () => {
    const reply = await server.request('GET', '/v2/listeners');
    expect(reply.body.offset).toBe(0);
    expect(reply.body.resources).toEqual([expect.objectContaining({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), compute_type: 'cluster', tenant_id: server.tenantId })]);
    expect((await server.request('GET', '/v2/listeners')).body).toEqual(reply.body);
    expect((await server.request('GET', '/v2/listeners?limit=0')).status).toBe(422);
    expect((await server.request('GET', '/v1/integrations/gitforge/install')).body).toEqual([]);
  });

  it('hands out upload URLs under /api-host', async () => {
    const created = await server.request('POST', '/v2/deployments', {
      name: 'self-hosted-upload',
      source: 'internal_source',
      source_config: {},
      source_revision_config: { graph_config_path: 'graph.json' },
      secrets: [],
    });
    const { upload_url } = (await server.request('POST', `/v2/deployments/${created.body.id}/upload-url`)).body;
    expect(new URL(upload_url).pathname.startsWith('/api-host/')).toBe(true);
  });
});
