// Each fault switch of the agent server (faults.md) produces the deviation it names, so the
// harness's negative self-tests have something real to catch.
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_SERVER_FAULTS, FAULTS } from '../../../reference-impl/agent-server/faults.ts';
import { parseFrames, startServer, uniqueTag, type TestServer } from './support.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function withFault(fault: string): Promise<TestServer> {
  const server = await startServer('memory', { faults: [fault] });
  servers.push(server);
  return server;
}

const echoInput = { messages: [{ role: 'user', content: 'hi' }] };

/** Reads a stream for at most `ms`, reporting whether the server ended it. */
async function readFor(server: TestServer, path: string, body: unknown, ms: number): Promise<{ text: string; ended: boolean; contentType: string | null }> {
  const abort = new AbortController();
  const response = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: abort.signal,
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const timer = setTimeout(() => abort.abort(), ms);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, ended: true, contentType: response.headers.get('content-type') };
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { text, ended: false, contentType: response.headers.get('content-type') };
  } finally {
    clearTimeout(timer);
  }
}

describe('agent server fault switches', () => {
  it('lists every fault in faults.ts and faults.md', async () => {
    const { readFile } = await import('node:fs/promises');
    const doc = await readFile(new URL('../../../reference-impl/agent-server/faults.md', import.meta.url), 'utf8');
    for (const fault of AGENT_SERVER_FAULTS) expect(doc).toContain(`\`${fault}\``);
  });

  it(`${FAULTS.patchMerges}: PATCH keeps earlier context`, async () => {
    const server = await withFault(FAULTS.patchMerges);
    const { body } = await server.call('POST', '/assistants', { graph_id: 'echo', context: { a: 1 } });
    const patched = await server.call('PATCH', `/assistants/${body.assistant_id}`, { context: { b: 2 } });
    expect(patched.body.context).toEqual({ a: 1, b: 2 });
  });

  it(`${FAULTS.setLatestIgnored}: the active version does not change`, async () => {
    const server = await withFault(FAULTS.setLatestIgnored);
    const { body } = await server.call('POST', '/assistants', { graph_id: 'echo', context: { v: 1 } });
    await server.call('PATCH', `/assistants/${body.assistant_id}`, { context: { v: 2 } });
    const latest = await server.call('POST', `/assistants/${body.assistant_id}/latest`, { version: 1 });
    expect(latest.status).toBe(200);
    expect((await server.call('GET', `/assistants/${body.assistant_id}`)).body).toMatchObject({ version: 2, context: { v: 2 } });
  });

  it(`${FAULTS.deleteKeepsVersions}: versions stay after delete`, async () => {
    const server = await withFault(FAULTS.deleteKeepsVersions);
    const { body } = await server.call('POST', '/assistants', { graph_id: 'echo' });
    expect((await server.call('DELETE', `/assistants/${body.assistant_id}`)).status).toBe(204);
    const versions = await server.call('POST', `/assistants/${body.assistant_id}/versions`, {});
    expect(versions.status).toBe(200);
    expect(versions.body).toHaveLength(1);
    expect((await server.call('POST', `/assistants/${body.assistant_id}/latest`, { version: 1 })).status).toBe(200);
  });

  it(`${FAULTS.metadataNotFirst}: the first event is not metadata`, async () => {
    const server = await withFault(FAULTS.metadataNotFirst);
    const reply = await server.stream('/runs/stream', { assistant_id: 'echo', input: echoInput, stream_mode: 'updates' });
    expect(reply.frames.map((f) => f.event)).toEqual(['updates', 'metadata']);
  });

  it(`${FAULTS.noDataLine}: an event has no data line`, async () => {
    const server = await withFault(FAULTS.noDataLine);
    const reply = await server.stream('/runs/stream', { assistant_id: 'echo', input: echoInput, stream_mode: 'updates' });
    expect(reply.frames[1]).toEqual({ event: 'updates', data: undefined, id: undefined });
  });

  it(`${FAULTS.wrongContentType}: the stream is labelled text/plain`, async () => {
    const server = await withFault(FAULTS.wrongContentType);
    const { contentType, text, ended } = await readFor(server, '/runs/stream', { assistant_id: 'echo', input: echoInput }, 2000);
    expect(contentType).toMatch(/^text\/plain/);
    expect(ended).toBe(true);
    expect(parseFrames(text)[0]!.event).toBe('metadata');
  });

  it(`${FAULTS.streamNeverEnds}: every event arrives but the response stays open`, async () => {
    const server = await withFault(FAULTS.streamNeverEnds);
    const { text, ended } = await readFor(server, '/runs/stream', { assistant_id: 'echo', input: echoInput, stream_mode: 'updates' }, 400);
    expect(ended).toBe(false);
    expect(parseFrames(text).map((f) => f.event)).toEqual(['metadata', 'updates']);
  });

  it(`${FAULTS.streamStalls}: metadata, then silence`, async () => {
    const server = await withFault(FAULTS.streamStalls);
    const { text, ended } = await readFor(server, '/runs/stream', { assistant_id: 'echo', input: echoInput, stream_mode: 'updates' }, 400);
    expect(ended).toBe(false);
    expect(parseFrames(text).map((f) => f.event)).toEqual(['metadata']);
  });

  it(`${FAULTS.updatesNotKeyedByNode}: updates carry the bare update`, async () => {
    const server = await withFault(FAULTS.updatesNotKeyedByNode);
    const reply = await server.stream('/runs/stream', { assistant_id: 'echo', input: echoInput, stream_mode: 'updates' });
    expect(Object.keys(reply.frames[1]!.data).sort()).toEqual(['context', 'messages']);
  });

  it(`${FAULTS.streamModeListRefused}: a list of stream modes is a 422`, async () => {
    const server = await withFault(FAULTS.streamModeListRefused);
    expect((await server.stream('/runs/stream', { assistant_id: 'echo', input: echoInput, stream_mode: ['updates'] })).status).toBe(422);
    expect((await server.stream('/runs/stream', { assistant_id: 'echo', input: echoInput, stream_mode: 'updates' })).status).toBe(200);
  });

  it(`${FAULTS.streamModeStringRefused}: a thread run with one stream mode as a string is a 400`, async () => {
    const server = await withFault(FAULTS.streamModeStringRefused);
    const thread = (await server.call('POST', '/threads', {})).body as { thread_id: string };
    expect((await server.stream(`/threads/${thread.thread_id}/runs/stream`, { assistant_id: 'echo', input: echoInput, stream_mode: 'updates' })).status).toBe(400);
    expect((await server.stream(`/threads/${thread.thread_id}/runs/stream`, { assistant_id: 'echo', input: echoInput, stream_mode: ['updates'] })).status).toBe(200);
    expect((await server.stream('/runs/stream', { assistant_id: 'echo', input: echoInput, stream_mode: 'updates' })).status).toBe(200);
  });

  it(`${FAULTS.graphNameRefused}: a graph id is not an assistant id`, async () => {
    const server = await withFault(FAULTS.graphNameRefused);
    expect((await server.stream('/runs/stream', { assistant_id: 'echo', input: echoInput })).status).toBe(404);
    expect((await server.call('GET', '/assistants/echo')).status).toBe(404);
  });

  it(`${FAULTS.statelessRunPersists}: a stateless run leaves a thread behind`, async () => {
    const server = await withFault(FAULTS.statelessRunPersists);
    const reply = await server.stream('/runs/stream', { assistant_id: 'echo', input: echoInput });
    const threadId = /^\/threads\/([^/]+)\/runs\//.exec(reply.headers.get('content-location') ?? '')?.[1];
    expect(threadId).toBeDefined();
    const thread = await server.call('GET', `/threads/${threadId}`);
    expect(thread.body.values.messages).toHaveLength(2);
  });

  it(`${FAULTS.searchIgnoresMetadata}: search returns assistants whose metadata does not match`, async () => {
    const server = await withFault(FAULTS.searchIgnoresMetadata);
    await server.call('POST', '/assistants', { graph_id: 'echo', metadata: { tag: uniqueTag() } });
    const found = await server.call('POST', '/assistants/search', { metadata: { tag: uniqueTag() } });
    expect(found.body.length).toBeGreaterThan(0);
  });

  it(`${FAULTS.versionNot1}: a new assistant is not version 1`, async () => {
    const server = await withFault(FAULTS.versionNot1);
    const { body } = await server.call('POST', '/assistants', { graph_id: 'echo', context: { v: 'first' } });
    expect(body.version).not.toBe(1);
    await server.call('PATCH', `/assistants/${body.assistant_id}`, { context: { v: 'second' } });
    const back = await server.call('POST', `/assistants/${body.assistant_id}/latest`, { version: body.version });
    expect(back.body.context).toEqual({ v: 'first' });
  });
});
