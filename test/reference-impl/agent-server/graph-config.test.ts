// User graphs registered by a graph configuration file (graph.json) in a temp dir: loading,
// reducers, context schema and defaults, streaming as nodes finish, client disconnects, and
// the errors a broken configuration gives.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAgentServerApp } from '../../../reference-impl/agent-server/app.ts';
import { uuidV5 } from '../../../reference-impl/agent-server/graph-registry.ts';
import { createContext } from '../../../reference-impl/context.ts';
import { parseFrames, startServer, type TestServer } from './support.ts';

const GRAPHS_MODULE = `
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const counter = {
  reducers: { count: (current: unknown, update: unknown) => Number(current ?? 0) + Number(update) },
  contextSchema: { type: 'object', properties: { step: { type: 'integer' } }, additionalProperties: false },
  contextDefaults: { step: 1 },
  nodes: [{ name: 'add', run: (_state: unknown, run: { context: { step: number } }) => ({ count: run.context.step }) }],
};

export const slow = {
  nodes: [
    { name: 'first', run: async (_state: unknown, run: { emit(value: unknown): void }) => { run.emit({ progress: 'first done' }); return { stage: 'first' }; } },
    { name: 'second', run: async () => { await sleep(400); return { stage: 'second' }; } },
  ],
};
`;

let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apc-graphs-'));
  await writeFile(join(dir, 'graphs.ts'), GRAPHS_MODULE);
  await writeFile(join(dir, 'graph.json'), JSON.stringify({ graphs: { counter: './graphs.ts:counter', slow: './graphs.ts:slow' } }));
  server = await startServer('memory', { graphConfigPath: join(dir, 'graph.json') });
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('graphs from graph.json', () => {
  it('are listed with the built-in graphs and get default assistants', async () => {
    expect((await server.call('GET', '/info')).body.graphs).toEqual(['echo', 'fail', 'counter', 'slow']);
    const assistant = await server.call('GET', '/assistants/counter');
    expect(assistant.body).toMatchObject({ assistant_id: uuidV5('counter'), graph_id: 'counter', metadata: { created_by: 'system' } });
  });

  it('run with their reducers and context defaults, accumulating on a thread', async () => {
    const { body: thread } = await server.call('POST', '/threads', {});
    const run = (context?: Record<string, unknown>) =>
      server.stream(`/threads/${thread.thread_id}/runs/stream`, { assistant_id: 'counter', input: null, ...(context && { context }) });
    expect((await run()).frames.at(-1)!.data).toEqual({ count: 1 });
    expect((await run({ step: 5 })).frames.at(-1)!.data).toEqual({ count: 6 });
  });

  it('validate assistant and run context against the graph context schema', async () => {
    const wrongType = await server.call('POST', '/assistants', { graph_id: 'counter', context: { step: 'two' } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.detail[0].loc).toEqual(['body', 'context', 'step']);
    expect((await server.call('POST', '/assistants', { graph_id: 'counter', context: { bogus: 1 } })).status).toBe(422);
    const created = await server.call('POST', '/assistants', { graph_id: 'counter', context: { step: 3 } });
    expect(created.status).toBe(200);
    expect((await server.stream('/runs/stream', { assistant_id: 'counter', input: null, context: { step: 'x' } })).status).toBe(422);
    const run = await server.stream('/runs/stream', { assistant_id: created.body.assistant_id, input: null });
    expect(run.frames.at(-1)!.data).toEqual({ count: 3 });
  });

  it('stream each node as it finishes, custom events included', async () => {
    const started = performance.now();
    const response = await fetch(`${server.url}/runs/stream`, {
      method: 'POST',
      headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ assistant_id: 'slow', input: {}, stream_mode: ['updates', 'custom'] }),
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let firstUpdateMs: number | undefined;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (firstUpdateMs === undefined && text.includes('event: updates')) firstUpdateMs = performance.now() - started;
    }
    const totalMs = performance.now() - started;
    expect(parseFrames(text).map((f) => [f.event, f.data])).toEqual([
      ['metadata', expect.any(Object)],
      ['custom', { progress: 'first done' }],
      ['updates', { first: { stage: 'first' } }],
      ['updates', { second: { stage: 'second' } }],
    ]);
    expect(firstUpdateMs).toBeLessThan(totalMs - 300);
  });

  it('survive a client that disconnects mid-stream', async () => {
    const { body: thread } = await server.call('POST', '/threads', {});
    const abort = new AbortController();
    const response = await fetch(`${server.url}/threads/${thread.thread_id}/runs/stream`, {
      method: 'POST',
      headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ assistant_id: 'slow', input: {}, stream_mode: 'updates' }),
      signal: abort.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();
    await expect(reader.read()).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await server.call('GET', '/ok')).status).toBe(200);
    const after = await server.stream(`/threads/${thread.thread_id}/runs/stream`, { assistant_id: 'echo', input: { messages: ['still here'] }, stream_mode: 'updates' });
    expect(after.frames.at(-1)!.data.echo.messages[0].content).toBe('still here');
  });
});

describe('a broken graph configuration', () => {
  const attempt = async (config: unknown, moduleText = GRAPHS_MODULE) => {
    const where = await mkdtemp(join(tmpdir(), 'apc-graphs-bad-'));
    try {
      await writeFile(join(where, 'graphs.ts'), moduleText);
      await writeFile(join(where, 'graph.json'), typeof config === 'string' ? config : JSON.stringify(config));
      const { ctx, close } = createContext({ graphConfigPath: join(where, 'graph.json') });
      try {
        const app = await buildAgentServerApp(ctx);
        await app.close();
        return 'started';
      } catch (error) {
        return (error as Error).message;
      } finally {
        await close();
      }
    } finally {
      await rm(where, { recursive: true, force: true });
    }
  };

  it('names what was expected and what was seen', async () => {
    expect(await attempt('{not json')).toMatch(/could not be read as JSON/);
    expect(await attempt({ graph: {} })).toMatch(/expected \{"graphs"/);
    expect(await attempt({ graphs: { x: './graphs.ts' } })).toMatch(/expected "\.\/path\/to\/module\.ts:exportName", saw "\.\/graphs\.ts"/);
    expect(await attempt({ graphs: { x: './missing.ts:counter' } })).toMatch(/could not import/);
    expect(await attempt({ graphs: { x: './graphs.ts:nothing' } })).toMatch(/export "nothing" .* is not a graph \(it is not an object\)/);
    expect(await attempt({ graphs: { echo: './graphs.ts:counter' } })).toMatch(/"echo" is built in/);
    expect(await attempt({ graphs: { x: './graphs.ts:counter' } })).toBe('started');
  });
});
