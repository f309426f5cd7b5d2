// System routes, the API reference, and API-key authentication (spec 1.B, 4.2, 5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './support.ts';

describe('system routes and authentication', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('memory', { apiKeys: [{ key: 'configured-key', tenants: [crypto.randomUUID()] }] });
  });
  afterAll(async () => {
    await server?.close();
  });

  const anonymous = (method: string, path: string, body?: unknown) => server.call(method, path, body, { headers: { 'x-api-key': '' } });

  it('answers /ok without a key', async () => {
    const reply = await anonymous('GET', '/ok');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: true });
  });

  it('reports version and graphs at /info without a key', async () => {
    const reply = await anonymous('GET', '/info');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ version: expect.any(String), graphs: ['echo', 'fail'], storage: 'memory' });
  });

  it('serves an OpenAPI document built from the schemas', async () => {
    const reply = await anonymous('GET', '/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.body.openapi).toMatch(/^3\./);
    for (const path of ['/assistants', '/assistants/{assistant_id}', '/assistants/{assistant_id}/latest', '/assistants/search', '/threads', '/threads/{thread_id}/runs/stream', '/runs/stream']) {
      expect(Object.keys(reply.body.paths)).toContain(path);
    }
    expect(Object.keys(reply.body.components.schemas)).toEqual(expect.arrayContaining(['Assistant', 'AssistantCreateRequest', 'RunStreamRequest']));
    expect(reply.body.paths['/assistants'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AssistantCreateRequest' });
  });

  it('serves an HTML reference at /docs listing every operation and schema', async () => {
    const reply = await anonymous('GET', '/docs');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
    expect(reply.text).toContain('/threads/{thread_id}/runs/stream');
    expect(reply.text).toContain('id="schema-AssistantCreateRequest"');
  });

  it('refuses every other route without a valid X-Api-Key with a 401 detail', async () => {
    for (const [method, path, body] of [
      ['GET', '/assistants/echo'],
      ['POST', '/assistants', { graph_id: 'echo' }],
      ['POST', '/threads', {}],
      ['POST', '/runs/stream', { assistant_id: 'echo', input: null }],
    ] as const) {
      const missing = await anonymous(method, path, body);
      expect(missing.status, `${method} ${path}`).toBe(401);
      expect(typeof missing.body.detail).toBe('string');
      const wrong = await server.call(method, path, body, { headers: { 'x-api-key': 'wrong-key' } });
      expect(wrong.status).toBe(401);
    }
  });

  it('creates nothing for a refused request', async () => {
    const tag = crypto.randomUUID();
    await anonymous('POST', '/assistants', { graph_id: 'echo', metadata: { tag } });
    const found = await server.call('POST', '/assistants/search', { metadata: { tag } });
    expect(found.body).toEqual([]);
  });

  it('accepts the configured key', async () => {
    expect((await server.call('GET', '/assistants/echo')).status).toBe(200);
  });

  it('answers malformed JSON, a missing body and unknown routes with a JSON 4xx', async () => {
    const malformed = await server.call('POST', '/assistants', undefined, { rawBody: '{"graph_id": ' });
    expect(malformed.status).toBe(400);
    expect(typeof malformed.body.detail).toBe('string');
    const empty = await server.call('POST', '/assistants', undefined, { rawBody: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toEqual([{ loc: ['body'], msg: expect.any(String), type: 'missing' }]);
    const created = await server.call('POST', '/assistants', { graph_id: 'echo' });
    const labelledDelete = await server.call('DELETE', `/assistants/${created.body.assistant_id}`, undefined, { rawBody: '' });
    expect(labelledDelete.status).toBe(204);
    const unknown = await server.call('GET', '/no/such/route');
    expect(unknown.status).toBe(404);
    expect(typeof unknown.body.detail).toBe('string');
  });
});

describe('generated development keys', () => {
  it('are required too', async () => {
    const server = await startServer('memory');
    try {
      expect((await server.call('GET', '/assistants/echo', undefined, { headers: { 'x-api-key': '' } })).status).toBe(401);
      expect((await server.call('GET', '/assistants/echo')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
