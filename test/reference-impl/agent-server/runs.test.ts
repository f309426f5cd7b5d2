// Threads and streamed runs (spec 4.2, 6), on both storage backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startServer, uniqueTag, type Frame, type TestServer } from './support.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const kinds = (frames: Frame[]) => frames.map((f) => f.event);

describe.each(BACKENDS)('threads and runs on %s storage', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });

  const newThread = async (body: unknown = {}) => {
    const reply = await server.call('POST', '/threads', body);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.thread_id as string;
  };

  it('creates a thread from an empty object', async () => {
    const reply = await server.call('POST', '/threads', {});
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ metadata: {}, status: 'idle' });
    expect(reply.body.thread_id).toMatch(UUID);
    expect(Date.parse(reply.body.created_at)).not.toBeNaN();
    expect(Date.parse(reply.body.updated_at)).not.toBeNaN();
    expect((await server.call('GET', `/threads/${reply.body.thread_id}`)).body).toEqual(reply.body);
  });

  it('keeps thread metadata and finds threads by it', async () => {
    const tag = uniqueTag();
    const threadId = await newThread({ metadata: { tag } });
    const found = await server.call('POST', '/threads/search', { metadata: { tag } });
    expect(found.body.map((t: { thread_id: string }) => t.thread_id)).toEqual([threadId]);
  });

  it('answers 404 for an unknown thread and 422 for a malformed id', async () => {
    const unknown = crypto.randomUUID();
    expect((await server.call('GET', `/threads/${unknown}`)).status).toBe(404);
    expect((await server.stream(`/threads/${unknown}/runs/stream`, { assistant_id: 'echo', input: null })).status).toBe(404);
    const malformed = await server.call('GET', '/threads/not-a-uuid');
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].loc).toEqual(['path', 'thread_id']);
  });

  it('streams metadata, then values for the input and after each node, numbered from 0', async () => {
    const threadId = await newThread();
    const reply = await server.stream(`/threads/${threadId}/runs/stream`, { assistant_id: 'echo', input: { messages: [{ role: 'user', content: 'hello' }] } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(reply.headers.get('cache-control')).toBe('no-cache');
    expect(kinds(reply.frames)).toEqual(['metadata', 'values', 'values']);
    expect(reply.frames.map((f) => f.id)).toEqual(['0', '1', '2']);
    const [metadata, input, output] = reply.frames as [Frame, Frame, Frame];
    expect(metadata.data).toEqual({ run_id: expect.stringMatching(UUID), attempt: 1 });
    expect(reply.headers.get('content-location')).toBe(`/threads/${threadId}/runs/${metadata.data.run_id}`);
    expect(input.data.messages).toEqual([{ type: 'human', content: 'hello', id: expect.any(String) }]);
    expect(output.data.messages).toEqual([input.data.messages[0], { type: 'ai', content: 'hello', id: expect.any(String) }]);
    expect(output.data.context).toEqual({});
  });

  it('streams updates keyed by node name', async () => {
    const reply = await server.stream('/runs/stream', { assistant_id: 'echo', input: { messages: [{ type: 'human', content: 'hey' }] }, stream_mode: 'updates' });
    expect(kinds(reply.frames)).toEqual(['metadata', 'updates']);
    expect(reply.frames[1]!.data).toEqual({ echo: { messages: [{ type: 'ai', content: 'hey', id: expect.any(String) }], context: {} } });
  });

  it('streams messages as metadata, partial and complete events of message lists', async () => {
    const reply = await server.stream('/runs/stream', { assistant_id: 'echo', input: { messages: [{ role: 'human', content: 'yo' }] }, stream_mode: ['messages'] });
    expect(kinds(reply.frames)).toEqual(['metadata', 'messages/metadata', 'messages/partial', 'messages/complete']);
    const complete = reply.frames[3]!.data;
    expect(complete).toEqual([{ type: 'ai', content: 'yo', id: expect.any(String) }]);
    expect(reply.frames[2]!.data).toEqual(complete);
    expect(Object.keys(reply.frames[1]!.data)).toEqual([complete[0].id]);
  });

  it('streams messages-tuple as messages events of [message, metadata]', async () => {
    const reply = await server.stream('/runs/stream', { assistant_id: 'echo', input: { messages: [{ role: 'user', content: 'tuple' }] }, stream_mode: 'messages-tuple' });
    expect(kinds(reply.frames)).toEqual(['metadata', 'messages']);
    const [message, metadata] = reply.frames[1]!.data;
    expect(message).toMatchObject({ type: 'ai', content: 'tuple' });
    expect(metadata).toMatchObject({ graph_node: 'echo', run_id: reply.frames[0]!.data.run_id });
  });

  it('accepts a list of stream modes and interleaves their events in step order', async () => {
    const reply = await server.stream('/runs/stream', { assistant_id: 'echo', input: { messages: ['plain string'] }, stream_mode: ['updates', 'messages', 'values'] });
    expect(kinds(reply.frames)).toEqual(['metadata', 'values', 'updates', 'messages/metadata', 'messages/partial', 'messages/complete', 'values']);
    expect(reply.frames[2]!.data.echo.messages[0].content).toBe('plain string');
  });

  it('accepts the remaining stream modes with simple payloads', async () => {
    const reply = await server.stream('/runs/stream', {
      assistant_id: 'echo',
      input: { messages: [{ role: 'user', content: 'all' }] },
      stream_mode: ['events', 'debug', 'tasks', 'checkpoints', 'custom'],
    });
    expect(reply.status).toBe(200);
    const seen = new Set(kinds(reply.frames));
    for (const kind of ['metadata', 'events', 'debug', 'tasks', 'checkpoints']) expect(seen).toContain(kind);
    const tasks = reply.frames.filter((f) => f.event === 'tasks').map((f) => f.data);
    expect(tasks).toEqual([expect.objectContaining({ name: 'echo', input: expect.any(Object) }), expect.objectContaining({ name: 'echo', error: null, result: expect.any(Object) })]);
    const checkpoints = reply.frames.filter((f) => f.event === 'checkpoints').map((f) => f.data);
    expect(checkpoints.map((c) => c.next)).toEqual([['echo'], []]);
  });

  it('accumulates state across runs on a thread', async () => {
    const threadId = await newThread();
    const run = (content: string) => server.stream(`/threads/${threadId}/runs/stream`, { assistant_id: 'echo', input: { messages: [{ role: 'user', content }] }, stream_mode: 'values' });
    await run('one');
    const second = await run('two');
    const last = second.frames.at(-1)!.data;
    expect(last.messages.map((m: { type: string; content: string }) => `${m.type}:${m.content}`)).toEqual(['human:one', 'ai:one', 'human:two', 'ai:two']);
    const state = await server.call('GET', `/threads/${threadId}/state`);
    expect(state.status).toBe(200);
    expect(state.body.values).toEqual(last);
    expect((await server.call('GET', `/threads/${threadId}`)).body).toMatchObject({ status: 'idle', values: last });
  });

  it('runs on a thread with null input from the saved state', async () => {
    const threadId = await newThread();
    await server.stream(`/threads/${threadId}/runs/stream`, { assistant_id: 'echo', input: { messages: [{ role: 'user', content: 'again' }] } });
    const reply = await server.stream(`/threads/${threadId}/runs/stream`, { assistant_id: 'echo', input: null, stream_mode: 'updates' });
    expect(reply.frames[1]!.data.echo.messages[0].content).toBe('again');
  });

  it('merges run context over assistant context and reports the effective context', async () => {
    const created = await server.call('POST', '/assistants', { graph_id: 'echo', context: { a: 1, b: 1 } });
    const reply = await server.stream('/runs/stream', { assistant_id: created.body.assistant_id, input: { messages: [] }, context: { b: 2, c: 3 }, stream_mode: 'updates' });
    expect(reply.frames[1]!.data.echo).toEqual({ messages: [{ type: 'ai', content: '', id: expect.any(String) }], context: { a: 1, b: 2, c: 3 } });
  });

  it('runs stateless without ids, with a /runs content location, storing nothing', async () => {
    const before = await server.call('POST', '/threads/search', { limit: 1000 });
    const reply = await server.stream('/runs/stream', { assistant_id: 'echo', input: { messages: [{ role: 'user', content: 'x' }] } });
    expect(reply.frames.every((f) => f.id === undefined)).toBe(true);
    expect(reply.headers.get('content-location')).toBe(`/runs/${reply.frames[0]!.data.run_id}`);
    const after = await server.call('POST', '/threads/search', { limit: 1000 });
    expect(after.body).toEqual(before.body);
  });

  it('refuses an unknown stream mode with 422 before streaming, and the thread is unchanged', async () => {
    const threadId = await newThread();
    const before = await server.call('GET', `/threads/${threadId}`);
    const reply = await server.stream(`/threads/${threadId}/runs/stream`, { assistant_id: 'echo', input: { messages: ['x'] }, stream_mode: ['updates', 'telepathy'] });
    expect(reply.status).toBe(422);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.body.detail[0]).toMatchObject({ loc: ['body', 'stream_mode', 1], type: 'stream_mode' });
    expect((await server.call('GET', `/threads/${threadId}`)).body).toEqual(before.body);
  });

  it('refuses malformed input messages with 422', async () => {
    const reply = await server.stream('/runs/stream', { assistant_id: 'echo', input: { messages: [{ content: 'no type' }, 42] } });
    expect(reply.status).toBe(422);
    expect(reply.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['body', 'input', 'messages', 0],
      ['body', 'input', 'messages', 1],
    ]);
  });

  it('answers 404 for an unknown assistant in a run', async () => {
    const reply = await server.stream('/runs/stream', { assistant_id: crypto.randomUUID(), input: null });
    expect(reply.status).toBe(404);
    expect(typeof reply.body.detail).toBe('string');
  });

  it('sends an error event when a node throws, then ends; the thread records the error', async () => {
    const threadId = await newThread();
    const reply = await server.stream(`/threads/${threadId}/runs/stream`, { assistant_id: 'fail', input: { messages: ['x'] }, stream_mode: ['updates'] });
    expect(reply.status).toBe(200);
    expect(kinds(reply.frames)).toEqual(['metadata', 'error']);
    expect(reply.frames[1]!.data).toEqual({ error: 'FixtureFailure', message: expect.stringContaining('always fails') });
    expect((await server.call('GET', `/threads/${threadId}`)).body.status).toBe('error');
  });
});
