// Assistants and their versions (spec 2.7, 3, 4.2), on both storage backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidV5 } from '../../../reference-impl/agent-server/graph-registry.ts';
import { BACKENDS, startServer, uniqueTag, type TestServer } from './support.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(BACKENDS)('assistants on %s storage', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });

  const create = async (body: Record<string, unknown>) => {
    const reply = await server.call('POST', '/assistants', body);
    expect(reply.status, reply.text).toBe(200);
    return reply.body;
  };
  const echoContext = async (assistantId: string, context?: Record<string, unknown>) => {
    const reply = await server.stream('/runs/stream', { assistant_id: assistantId, input: { messages: [{ role: 'user', content: 'hi' }] }, stream_mode: 'updates', ...(context && { context }) });
    expect(reply.status, reply.text).toBe(200);
    return reply.frames.find((f) => f.event === 'updates')?.data.echo.context;
  };

  it('creates version 1 with every field of the assistant', async () => {
    const tag = uniqueTag();
    const assistant = await create({ graph_id: 'echo', name: 'first', context: { tone: 'dry' }, metadata: { tag } });
    expect(assistant).toMatchObject({ graph_id: 'echo', name: 'first', context: { tone: 'dry' }, metadata: { tag }, version: 1, config: {} });
    expect(assistant.assistant_id).toMatch(UUID);
    expect(Date.parse(assistant.created_at)).not.toBeNaN();
    expect(Date.parse(assistant.updated_at)).not.toBeNaN();
    const fetched = await server.call('GET', `/assistants/${assistant.assistant_id}`);
    expect(fetched.body).toEqual(assistant);
  });

  it('defaults omitted fields: context and metadata {}, name the graph id', async () => {
    const assistant = await create({ graph_id: 'echo' });
    expect(assistant).toMatchObject({ context: {}, metadata: {}, name: 'echo', version: 1 });
  });

  it('refuses an unregistered graph with a 422 naming it, and stores nothing', async () => {
    const tag = uniqueTag();
    const reply = await server.call('POST', '/assistants', { graph_id: 'no-such-graph', metadata: { tag } });
    expect(reply.status).toBe(422);
    expect(reply.body.detail[0]).toMatchObject({ loc: ['body', 'graph_id'], type: 'graph_not_found' });
    expect(reply.body.detail[0].msg).toContain('no-such-graph');
    const found = await server.call('POST', '/assistants/search', { metadata: { tag } });
    expect(found.body).toEqual([]);
  });

  it('refuses a body without graph_id with HTTPValidationError', async () => {
    const reply = await server.call('POST', '/assistants', { name: 'x' });
    expect(reply.status).toBe(422);
    expect(reply.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: expect.arrayContaining(['body']), msg: expect.any(String), type: expect.any(String) })]));
  });

  it('honours a given assistant_id and if_exists', async () => {
    const id = crypto.randomUUID();
    const first = await create({ graph_id: 'echo', assistant_id: id, name: 'one' });
    expect(first.assistant_id).toBe(id);
    const again = await server.call('POST', '/assistants', { graph_id: 'echo', assistant_id: id, name: 'two' });
    expect(again.status).toBe(409);
    expect(typeof again.body.detail).toBe('string');
    const kept = await server.call('POST', '/assistants', { graph_id: 'echo', assistant_id: id, name: 'two', if_exists: 'do_nothing' });
    expect(kept.status).toBe(200);
    expect(kept.body).toEqual(first);
  });

  it('PATCH adds a version from the supplied configuration alone and makes it active', async () => {
    const original = await create({ graph_id: 'echo', name: 'orig', context: { a: 1, b: 2 }, metadata: { keep: 'me' } });
    const patched = await server.call('PATCH', `/assistants/${original.assistant_id}`, { context: { b: 3 } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ assistant_id: original.assistant_id, graph_id: 'echo', version: 2, context: { b: 3 }, metadata: {}, name: 'echo' });
    expect(patched.body.created_at).toBe(original.created_at);
    expect(Date.parse(patched.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(original.updated_at));
    const emptied = await server.call('PATCH', `/assistants/${original.assistant_id}`, {});
    expect(emptied.body).toMatchObject({ version: 3, context: {} });
    expect((await server.call('GET', `/assistants/${original.assistant_id}`)).body.version).toBe(3);
  });

  it('PATCH of an unknown assistant is a 404 with a detail', async () => {
    const reply = await server.call('PATCH', `/assistants/${crypto.randomUUID()}`, { context: {} });
    expect(reply.status).toBe(404);
    expect(reply.body.detail).toMatch(/not found/);
  });

  it('set latest restores the whole version, and runs by assistant_id use it', async () => {
    const original = await create({ graph_id: 'echo', name: 'v1', context: { level: 1 }, metadata: { v: 1 } });
    const id = original.assistant_id;
    await server.call('PATCH', `/assistants/${id}`, { name: 'v2', context: { level: 2 }, metadata: { v: 2 } });
    expect(await echoContext(id)).toEqual({ level: 2 });
    const latest = await server.call('POST', `/assistants/${id}/latest`, { version: 1 });
    expect(latest.status, latest.text).toBe(200);
    expect(latest.body).toMatchObject({ version: 1, name: 'v1', context: { level: 1 }, metadata: { v: 1 } });
    expect((await server.call('GET', `/assistants/${id}`)).body).toMatchObject({ version: 1, name: 'v1', context: { level: 1 }, metadata: { v: 1 } });
    expect(await echoContext(id)).toEqual({ level: 1 });
  });

  it('set latest with an unknown version is a 404 and changes nothing', async () => {
    const original = await create({ graph_id: 'echo', context: { x: 1 } });
    const reply = await server.call('POST', `/assistants/${original.assistant_id}/latest`, { version: 7 });
    expect(reply.status).toBe(404);
    expect(reply.body.detail).toContain('Version 7');
    expect((await server.call('GET', `/assistants/${original.assistant_id}`)).body).toEqual(original);
  });

  it('lists versions newest first with limit and offset', async () => {
    const { assistant_id: id } = await create({ graph_id: 'echo', context: { n: 1 } });
    await server.call('PATCH', `/assistants/${id}`, { context: { n: 2 } });
    await server.call('PATCH', `/assistants/${id}`, { context: { n: 3 } });
    const all = await server.call('POST', `/assistants/${id}/versions`, {});
    expect(all.status).toBe(200);
    expect(all.body.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect(all.body.map((v: { context: unknown }) => v.context)).toEqual([{ n: 3 }, { n: 2 }, { n: 1 }]);
    const page = await server.call('POST', `/assistants/${id}/versions`, { limit: 1, offset: 1 });
    expect(page.body.map((v: { version: number }) => v.version)).toEqual([2]);
  });

  it('DELETE removes the assistant and all its versions', async () => {
    const { assistant_id: id } = await create({ graph_id: 'echo' });
    await server.call('PATCH', `/assistants/${id}`, { context: { n: 2 } });
    const deleted = await server.call('DELETE', `/assistants/${id}`);
    expect(deleted.status).toBe(204);
    expect((await server.call('GET', `/assistants/${id}`)).status).toBe(404);
    expect((await server.call('POST', `/assistants/${id}/versions`, {})).status).toBe(404);
    expect((await server.call('POST', `/assistants/${id}/latest`, { version: 1 })).status).toBe(404);
    expect((await server.call('DELETE', `/assistants/${id}`)).status).toBe(404);
    const run = await server.stream('/runs/stream', { assistant_id: id, input: null });
    expect(run.status).toBe(404);
  });

  it('has no way to delete a single version', async () => {
    const { assistant_id: id } = await create({ graph_id: 'echo' });
    await server.call('PATCH', `/assistants/${id}`, { context: { n: 2 } });
    for (const path of [`/assistants/${id}/versions/1`, `/assistants/${id}/versions`]) {
      const reply = await server.call('DELETE', path);
      expect([404, 405]).toContain(reply.status);
    }
    const versions = await server.call('POST', `/assistants/${id}/versions`, {});
    expect(versions.body).toHaveLength(2);
  });

  it('searches by metadata containment, newest first, limit 10 by default', async () => {
    const tag = uniqueTag();
    const made = [];
    for (let i = 0; i < 12; i += 1) made.push(await create({ graph_id: 'echo', metadata: { tag, i, nested: { even: i % 2 === 0 } } }));
    const first = await server.call('POST', '/assistants/search', { metadata: { tag } });
    expect(first.status).toBe(200);
    expect(first.body.map((a: { metadata: { i: number } }) => a.metadata.i)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    const rest = await server.call('POST', '/assistants/search', { metadata: { tag }, limit: 5, offset: 10 });
    expect(rest.body.map((a: { metadata: { i: number } }) => a.metadata.i)).toEqual([1, 0]);
    const even = await server.call('POST', '/assistants/search', { metadata: { tag, nested: { even: true } }, limit: 100 });
    expect(even.body).toHaveLength(6);
    const byGraph = await server.call('POST', '/assistants/search', { metadata: { tag }, graph_id: 'fail' });
    expect(byGraph.body).toEqual([]);
  });

  it('search matches the active version', async () => {
    const tag = uniqueTag();
    const { assistant_id: id } = await create({ graph_id: 'echo', metadata: { tag, stage: 'one' } });
    await server.call('PATCH', `/assistants/${id}`, { metadata: { tag, stage: 'two' } });
    expect((await server.call('POST', '/assistants/search', { metadata: { tag, stage: 'one' } })).body).toEqual([]);
    await server.call('POST', `/assistants/${id}/latest`, { version: 1 });
    expect((await server.call('POST', '/assistants/search', { metadata: { tag, stage: 'one' } })).body).toHaveLength(1);
  });

  it('serves each graph a system-created default assistant under the graph id', async () => {
    for (const graphId of ['echo', 'fail']) {
      const reply = await server.call('GET', `/assistants/${graphId}`);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ assistant_id: uuidV5(graphId), graph_id: graphId, metadata: { created_by: 'system' }, version: 1 });
    }
    const system = await server.call('POST', '/assistants/search', { metadata: { created_by: 'system' }, limit: 100 });
    expect(system.body.map((a: { graph_id: string }) => a.graph_id).sort()).toEqual(['echo', 'fail']);
  });

  it('answers 404 for an assistant id that is neither a uuid nor a graph', async () => {
    const reply = await server.call('GET', '/assistants/not-a-graph');
    expect(reply.status).toBe(404);
    expect(reply.body.detail).toContain('echo');
  });
});

describe('default assistant ids', () => {
  it('are uuid v5 of the graph id (checked against the RFC 4122 DNS example)', () => {
    expect(uuidV5('python.org', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d');
    expect(uuidV5('echo')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
