// Property: whatever a client sends (random paths, ids, JSON of any shape, strings PostgreSQL
// cannot store, malformed bodies), the agent server answers below 500, a refusal carries a
// JSON `detail`, and a refused request changes nothing. On both storage backends.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startServer, type TestServer } from './support.ts';

const FIELDS = ['graph_id', 'assistant_id', 'context', 'metadata', 'name', 'config', 'if_exists', 'version', 'limit', 'offset', 'graph_id', 'input', 'stream_mode', 'thread_id', 'messages'];

const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }));
const plausibleBody = fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(anyJson, fc.constantFrom('echo', 'fail', 'values', 'updates', 1, 0, -1, null)), { maxKeys: 5 });
const body = fc.oneof(
  { arbitrary: plausibleBody.map((b) => ({ json: b as unknown })), weight: 4 },
  { arbitrary: anyJson.map((b) => ({ json: b as unknown })), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map((raw) => ({ raw })), weight: 1 },
  { arbitrary: fc.constant({}), weight: 1 },
);

interface Ids {
  assistant: string;
  thread: string;
}

function requestArb(ids: Ids) {
  // Path segments must be well-formed UTF-16 to be URL-encoded at all.
  const segment = fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => {
    try {
      return encodeURIComponent(s) !== undefined;
    } catch {
      return false;
    }
  });
  const assistantId = fc.oneof(fc.constant(ids.assistant), fc.constantFrom('echo', 'fail', '..', '%00'), fc.uuid(), segment);
  const threadId = fc.oneof(fc.constant(ids.thread), fc.uuid(), segment);
  const enc = (s: string) => (s.startsWith('%') ? s : encodeURIComponent(s));
  const route = fc.oneof(
    fc.constant({ method: 'POST', path: '/assistants' }),
    fc.constant({ method: 'POST', path: '/assistants/search' }),
    fc.constant({ method: 'POST', path: '/threads' }),
    fc.constant({ method: 'POST', path: '/threads/search' }),
    fc.constant({ method: 'POST', path: '/runs/stream' }),
    assistantId.chain((id) => fc.constantFrom(
      { method: 'GET', path: `/assistants/${enc(id)}` },
      { method: 'PATCH', path: `/assistants/${enc(id)}` },
      { method: 'DELETE', path: `/assistants/${enc(id)}/versions/1` },
      { method: 'POST', path: `/assistants/${enc(id)}/latest` },
      { method: 'POST', path: `/assistants/${enc(id)}/versions` },
    )),
    threadId.chain((id) => fc.constantFrom(
      { method: 'GET', path: `/threads/${enc(id)}` },
      { method: 'GET', path: `/threads/${enc(id)}/state` },
      { method: 'POST', path: `/threads/${enc(id)}/runs/stream` },
    )),
  );
  return fc.record({ route, body });
}

describe.each(BACKENDS)('bad input on %s storage', (backend) => {
  let server: TestServer;
  let ids: Ids;
  beforeAll(async () => {
    server = await startServer(backend);
    const assistant = await server.call('POST', '/assistants', { graph_id: 'echo', context: { keep: true } });
    const thread = await server.call('POST', '/threads', {});
    ids = { assistant: assistant.body.assistant_id, thread: thread.body.thread_id };
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Everything a request could change, as seen through the API. */
  const snapshot = async () => {
    const assistants = await server.call('POST', '/assistants/search', { limit: 1000 });
    const threads = await server.call('POST', '/threads/search', { limit: 1000 });
    const versions = await server.call('POST', `/assistants/${ids.assistant}/versions`, { limit: 1000 });
    return [assistants.body, threads.body, versions.body];
  };

  it('refuses strings PostgreSQL cannot store and very deep bodies with 422, storing nothing', async () => {
    const before = await snapshot();
    const deep = `{"graph_id":"echo","metadata":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    for (const [sent, type] of [
      [JSON.stringify({ graph_id: 'echo', metadata: { note: 'nul \u0000 inside' } }), 'string_unstorable'],
      [JSON.stringify({ graph_id: 'echo', context: { ['key\u0000']: 1 } }), 'string_unstorable'],
      ['{"graph_id":"echo","name":"lone \\ud800 surrogate"}', 'string_unstorable'],
      [deep, 'too_deep'],
    ] as const) {
      const reply = await server.call('POST', '/assistants', undefined, { rawBody: sent });
      expect(reply.status, reply.text).toBe(422);
      expect(reply.body.detail[0].type).toBe(type);
    }
    const run = await server.stream(`/threads/${ids.thread}/runs/stream`, { assistant_id: 'echo', input: { messages: ['\u0000'] } });
    expect(run.status).toBe(422);
    expect(await snapshot()).toEqual(before);
  });

  it('never answers 5xx, explains refusals in JSON, and changes nothing when refusing', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb(ids), async ({ route, body }) => {
        const before = await snapshot();
        // fetch sends no body with GET.
        const sent = route.method === 'GET' ? {} : body;
        const reply = await server.call(route.method, route.path, 'json' in sent ? sent.json : undefined, 'raw' in sent ? { rawBody: sent.raw } : {});
        expect(reply.status, `${route.method} ${route.path} ${reply.text}`).toBeLessThan(500);
        if (reply.status >= 400) {
          expect(reply.body, reply.text).toHaveProperty('detail');
          expect(await snapshot()).toEqual(before);
        }
      }),
      { numRuns: 60 },
    );
  });
});
