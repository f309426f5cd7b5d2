// A real client against the reference agent server: the public JavaScript SDK of the graph
// framework's agent server, as a consumer would use it.
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, uniqueTag, type TestServer } from './support.ts';

describe('the public JavaScript client', () => {
  let server: TestServer;
  let client: Client;
  beforeAll(async () => {
    server = await startServer('memory');
    client = new Client({ apiUrl: server.url, apiKey: server.apiKey });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates, updates and pins an assistant, then streams updates and messages on a thread', async () => {
    const tag = uniqueTag();
    const assistant = await client.assistants.create({ graphId: 'echo', name: 'sdk', context: { persona: 'first' }, metadata: { tag } });
    expect(assistant).toMatchObject({ graph_id: 'echo', name: 'sdk', version: 1, context: { persona: 'first' } });

    const updated = await client.assistants.update(assistant.assistant_id, { context: { persona: 'second' } });
    expect(updated).toMatchObject({ assistant_id: assistant.assistant_id, version: 2, context: { persona: 'second' }, metadata: {} });
    expect((await client.assistants.getVersions(assistant.assistant_id)).map((v) => v.version)).toEqual([2, 1]);

    const pinned = await client.assistants.setLatest(assistant.assistant_id, 1);
    expect(pinned).toMatchObject({ version: 1, name: 'sdk', context: { persona: 'first' }, metadata: { tag } });
    expect(await client.assistants.search({ metadata: { tag } })).toEqual([pinned]);

    const thread = await client.threads.create();
    expect(thread.status).toBe('idle');
    let created: { run_id: string; thread_id?: string | undefined } | undefined;
    const parts: { event: string; data: any }[] = [];
    for await (const part of client.runs.stream(thread.thread_id, assistant.assistant_id, {
      input: { messages: [{ role: 'user', content: 'hello from the sdk' }] },
      streamMode: ['updates', 'messages'],
      onRunCreated: (meta) => {
        created = meta;
      },
    })) {
      parts.push(part as { event: string; data: any });
    }

    expect(parts.map((p) => p.event)).toEqual(['metadata', 'updates', 'messages/metadata', 'messages/partial', 'messages/complete']);
    expect(parts[0]!.data).toEqual({ run_id: created!.run_id, attempt: 1 });
    expect(created!.thread_id).toBe(thread.thread_id);
    expect(parts[1]!.data).toEqual({ echo: { messages: [{ type: 'ai', content: 'hello from the sdk', id: expect.any(String) }], context: { persona: 'first' } } });
    expect(parts[4]!.data).toEqual([parts[1]!.data.echo.messages[0]]);

    const state = await client.threads.getState<{ messages: { type: string; content: string }[] }>(thread.thread_id);
    expect(state.values.messages.map((m) => `${m.type}:${m.content}`)).toEqual(['human:hello from the sdk', 'ai:hello from the sdk']);

    await client.assistants.delete(assistant.assistant_id);
    await expect(client.assistants.get(assistant.assistant_id)).rejects.toThrow(/404/);
  });

  it('streams a stateless run by graph name and sees a failing graph as an error event', async () => {
    const parts: { event: string; data: any }[] = [];
    for await (const part of client.runs.stream(null, 'fail', { input: { messages: [] }, streamMode: 'updates' })) parts.push(part as { event: string; data: any });
    expect(parts.map((p) => p.event)).toEqual(['metadata', 'error']);
    expect(parts[1]!.data.error).toBe('FixtureFailure');
  });
});
