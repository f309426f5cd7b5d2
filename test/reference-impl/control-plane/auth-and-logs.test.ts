// Authentication and tenancy (spec 5) on both backends, and logs that never carry an API key, a
// secret value or an upload token.
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createBodies, createDeployment, sendRequest, startOn, type ControlPlaneServer } from './control-plane-server.ts';

const tenantA = randomUUID();
const tenantB = randomUUID();
const keyAB = `key-ab-${randomUUID()}`;
const keyB = `key-b-${randomUUID()}`;

describe.each(BACKENDS)('authentication and tenancy on %s', (backend) => {
  let server: ControlPlaneServer;
  beforeAll(async () => {
    server = await startOn(backend, { apiKeys: [{ key: keyAB, tenants: [tenantA, tenantB] }, { key: keyB, tenants: [tenantB] }] });
  });
  afterAll(() => server.close());

  const as = (key: string | undefined, tenant?: string) => (method: string, path: string, body?: unknown) =>
    sendRequest(server.url, method, path, body, { ...(key ? { 'x-api-key': key } : {}), ...(tenant ? { 'x-tenant-id': tenant } : {}) });

  it('answers 401 {detail} without a key or with a wrong one, on every endpoint, before reading the body', async () => {
    const id = randomUUID();
    for (const call of [as(undefined), as('wrong-key', tenantA)]) {
      for (const [method, path, body] of [
        ['POST', '/v2/deployments', createBodies.internal_container()],
        ['POST', '/v2/deployments', '{not json'],
        ['GET', '/v2/deployments'],
        ['GET', `/v2/deployments/${id}`],
        ['PATCH', `/v2/deployments/${id}`, {}],
        ['DELETE', `/v2/deployments/${id}`],
        ['GET', `/v2/deployments/${id}/revisions`],
        ['GET', `/v2/deployments/${id}/revisions/${id}`],
        ['POST', `/v2/deployments/${id}/upload-url`],
        ['POST', `/deployments/${id}/upload-url`],
        ['GET', '/v1/integrations/gitforge/install'],
        ['GET', '/v2/listeners'],
      ] as const) {
        const reply = await call(method, path, body);
        expect(reply.status, `${method} ${path}`).toBe(401);
        expect(typeof reply.body.detail).toBe('string');
      }
    }
  });

  it('answers 403 for a tenant the key may not use, and when a multi-tenant key names none', async () => {
    const foreign = await as(keyB, tenantA)('GET', '/v2/deployments');
    expect(foreign.status).toBe(403);
    const unnamed = await as(keyAB)('GET', '/v2/deployments');
    expect(unnamed.status).toBe(403);
    expect(unnamed.body).toEqual({ detail: 'requires workspace specification' });
    expect((await as(keyB)('GET', '/v2/deployments')).status).toBe(200);
  });

  it('keeps tenants apart: another tenant gets 404 for every read and change, and lists nothing of it', async () => {
    const inA = as(keyAB, tenantA);
    const inB = as(keyAB, tenantB);
    const createdReply = await inA('POST', '/v2/deployments', createBodies.internal_container());
    expect(createdReply.status).toBe(201);
    const created = createdReply.body;
    expect(created.tenant_id).toBe(tenantA);
    const notFound = { detail: `Deployment ID ${created.id} not found.` };
    for (const [method, path, body] of [
      ['GET', `/v2/deployments/${created.id}`],
      ['PATCH', `/v2/deployments/${created.id}`, { secrets: [] }],
      ['GET', `/v2/deployments/${created.id}/revisions`],
      ['GET', `/v2/deployments/${created.id}/revisions/${created.latest_revision_id}`],
      ['POST', `/v2/deployments/${created.id}/upload-url`],
      ['DELETE', `/v2/deployments/${created.id}`],
    ] as const) {
      const reply = await inB(method, path, body);
      expect(reply.status, `${method} ${path}`).toBe(404);
      expect(reply.body).toEqual(notFound);
    }
    expect((await inB('GET', `/v2/deployments?deployment_ids=${created.id}`)).body.resources).toEqual([]);
    const still = await inA('GET', `/v2/deployments/${created.id}`);
    expect(still.body).toEqual(created);
    expect((await inA('GET', `/v2/deployments/${created.id}/revisions`)).body.resources).toHaveLength(1);
    // The same name is free in the other tenant.
    expect((await inB('POST', '/v2/deployments', createBodies.internal_container(created.name))).status).toBe(201);
  });
});

describe('logs', () => {
  let server: ControlPlaneServer;
  beforeAll(async () => {
    server = await startOn('memory', { log: true });
  });
  afterAll(() => server.close());

  it('are structured JSON and never contain the API key, a secret value or an upload token', async () => {
    const secretValue = `very-secret-${randomUUID()}`;
    const body = { ...createBodies.internal_source(), secrets: [{ name: 'OPENAI_API_KEY', value: secretValue }] };
    const created = await createDeployment(server, body);
    await server.request('PATCH', `/v2/deployments/${created.id}`, { secrets: [{ name: 'OPENAI_API_KEY', value: secretValue }] });
    await server.request('PATCH', `/v2/deployments/${created.id}`, { secrets: [{ name: 1, value: secretValue }] });
    await server.request('POST', '/v2/deployments', `{"secrets": [{"name": "A", "value": "${secretValue}"`);
    const { upload_url } = (await server.request('POST', `/v2/deployments/${created.id}/upload-url`)).body;
    await fetch(upload_url, { method: 'PUT', headers: { 'content-type': 'application/gzip' }, body: gzipSync(Buffer.from('x')) });
    await sendRequest(server.url, 'GET', '/v2/deployments', undefined, { 'x-api-key': `${server.apiKey}-typo` });
    expect(server.logs.length).toBeGreaterThan(5);
    for (const line of server.logs) expect(() => JSON.parse(line)).not.toThrow();
    const all = server.logs.join('\n');
    expect(all).not.toContain(server.apiKey);
    expect(all).not.toContain(secretValue);
    expect(all).not.toContain(new URL(upload_url).pathname.split('/').pop());
    expect(all).toContain('/v2/deployments');
  });
});
