// The bad-input corpus: every class of hostile input the review found (huge arrays, deep nesting,
// long strings, NUL and unpaired surrogates, invalid UTF-8, out-of-range numbers, malformed JSON,
// wrong media types, bad URL encodings, overlong ids, oversized headers) plus fast-check bodies,
// sent to every endpoint of the three listeners on the memory store and on PostgreSQL alike.
// Each request must get a 4xx in the spec's shape or a success, never a 5xx; both stores must
// answer with the same status; a refusal must change nothing.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBodies, uniqueName } from '../control-plane/control-plane-server.ts';
import { row, upload } from '../experiment-upload/bodies.ts';
import { getWithOversizedHeaders, referenceOn, type Listener, type Reply, type RunningReference } from './reference-on.ts';

interface Endpoint {
  listener: Listener;
  method: string;
  /** With {deployment}, {revision}, {assistant}, {thread}, {dataset}, {session} or {id} to fill in. */
  path: string;
  /** A valid body, for the endpoints that take one. */
  valid?: () => Record<string, unknown>;
}

const ENDPOINTS: Endpoint[] = [
  { listener: 'controlPlane', method: 'POST', path: '/v2/deployments', valid: () => createBodies.internal_source(uniqueName('corpus')) },
  { listener: 'controlPlane', method: 'GET', path: '/v2/deployments' },
  { listener: 'controlPlane', method: 'GET', path: '/v2/deployments/{deployment}' },
  { listener: 'controlPlane', method: 'PATCH', path: '/v2/deployments/{deployment}', valid: () => ({ secrets: [{ name: 'A', value: 'b' }] }) },
  { listener: 'controlPlane', method: 'DELETE', path: '/v2/deployments/{id}' },
  { listener: 'controlPlane', method: 'GET', path: '/v2/deployments/{deployment}/revisions' },
  { listener: 'controlPlane', method: 'GET', path: '/v2/deployments/{deployment}/revisions/{revision}' },
  { listener: 'controlPlane', method: 'POST', path: '/v2/deployments/{deployment}/upload-url', valid: () => ({}) },
  { listener: 'controlPlane', method: 'POST', path: '/deployments/{deployment}/upload-url', valid: () => ({}) },
  { listener: 'controlPlane', method: 'PUT', path: '/uploads/source-tarballs/{id}' },
  { listener: 'controlPlane', method: 'GET', path: '/v1/integrations/gitforge/install' },
  { listener: 'controlPlane', method: 'GET', path: '/v2/listeners' },
  { listener: 'agentServer', method: 'GET', path: '/ok' },
  { listener: 'agentServer', method: 'GET', path: '/info' },
  { listener: 'agentServer', method: 'POST', path: '/assistants', valid: () => ({ graph_id: 'echo', name: uniqueName('a'), metadata: { k: 'v' } }) },
  { listener: 'agentServer', method: 'GET', path: '/assistants/{assistant}' },
  { listener: 'agentServer', method: 'PATCH', path: '/assistants/{assistant}', valid: () => ({ metadata: { k: 'v2' } }) },
  { listener: 'agentServer', method: 'DELETE', path: '/assistants/{id}' },
  { listener: 'agentServer', method: 'POST', path: '/assistants/{assistant}/latest', valid: () => ({ version: 1 }) },
  { listener: 'agentServer', method: 'POST', path: '/assistants/{assistant}/versions', valid: () => ({ limit: 5 }) },
  { listener: 'agentServer', method: 'POST', path: '/assistants/search', valid: () => ({ limit: 5, metadata: { k: 'v' } }) },
  { listener: 'agentServer', method: 'POST', path: '/threads', valid: () => ({ metadata: { k: 'v' } }) },
  { listener: 'agentServer', method: 'GET', path: '/threads/{thread}' },
  { listener: 'agentServer', method: 'GET', path: '/threads/{thread}/state' },
  { listener: 'agentServer', method: 'DELETE', path: '/threads/{id}' },
  { listener: 'agentServer', method: 'POST', path: '/threads/search', valid: () => ({ limit: 5 }) },
  { listener: 'agentServer', method: 'POST', path: '/threads/{thread}/runs/stream', valid: () => ({ assistant_id: 'echo', input: { messages: [{ role: 'user', content: 'hi' }] } }) },
  { listener: 'agentServer', method: 'POST', path: '/runs/stream', valid: () => ({ assistant_id: 'echo', input: { messages: [{ role: 'user', content: 'hi' }] } }) },
  { listener: 'experimentUpload', method: 'POST', path: '/api/v1/datasets/upload-experiment', valid: () => upload({ results: [row()] }) },
  { listener: 'experimentUpload', method: 'POST', path: '/api/v1/datasets', valid: () => ({ name: uniqueName('ds') }) },
  { listener: 'experimentUpload', method: 'GET', path: '/api/v1/datasets' },
  { listener: 'experimentUpload', method: 'GET', path: '/api/v1/datasets/{dataset}' },
  { listener: 'experimentUpload', method: 'DELETE', path: '/api/v1/datasets/{id}' },
  { listener: 'experimentUpload', method: 'GET', path: '/api/v1/sessions' },
  { listener: 'experimentUpload', method: 'GET', path: '/api/v1/sessions/{session}' },
  { listener: 'experimentUpload', method: 'DELETE', path: '/api/v1/sessions/{id}' },
];

const WITH_BODY = ENDPOINTS.filter((e) => e.method !== 'GET' && e.method !== 'DELETE');
const WITH_ID = ENDPOINTS.filter((e) => e.path.includes('{'));

const json = (text: string) => Buffer.from(text);

/** Bodies every JSON endpoint must refuse while reading them, whatever their fields. */
const REFUSED_WHILE_READ: [string, Buffer, Record<string, string>?][] = [
  ['an array of 20,000 items', json(`{"metadata":{"a":[${Array(20_000).fill('1').join(',')}]}}`)],
  ['5,000 levels of nesting', json(`{"metadata":${'['.repeat(5_000)}${']'.repeat(5_000)}}`)],
  ['a string of 1,100,000 characters', json(`{"name":"${'x'.repeat(1_100_000)}"}`)],
  ['NUL in a string', json('{"name":"a\\u0000b"}')],
  ['NUL in a key', json('{"metadata":{"a\\u0000":1}}')],
  ['an unpaired surrogate', json('{"name":"\\ud800x"}')],
  ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])],
  ['a number beyond a double', json('{"limit":1e400}')],
  ['malformed JSON', json('{"name": ')],
  ['a __proto__ key', json('{"__proto__":{"admin":true}}')],
  ['an XML body', json('<name/>'), { 'content-type': 'application/xml' }],
];

/** One byte over each listener's body limit (README: "Input limits"), padded with spaces. */
const OVER_LIMIT: Record<Listener, Buffer> = {
  controlPlane: Buffer.alloc(1024 * 1024 + 1, 0x20),
  agentServer: Buffer.alloc(1024 * 1024 + 1, 0x20),
  experimentUpload: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20),
};

/** Bodies that are valid JSON but out of range for most fields: each endpoint decides. */
const OUT_OF_RANGE: [string, string][] = [
  ['a version beyond 32 bits', '{"version":2147483648}'],
  ['a version of 1e308', '{"version":1e308}'],
  ['an offset beyond 2^53', '{"limit":5,"offset":9007199254740993}'],
  ['a negative limit', '{"limit":-1}'],
  ['a name of 3,000 characters', `{"name":"${'n'.repeat(3_000)}","graph_id":"echo"}`],
  ['an empty body', ''],
];

/** Path ids (and queries) no endpoint can serve. */
const BAD_IDS = ['%ff', '%00', 'a'.repeat(101), 'a'.repeat(5_000), '..%2F..%2Fetc', '%E2%80%AE', 'not-a-uuid?limit=1e400&offset=-1&name=%00'];

interface Fixture {
  [key: string]: string;
}

async function fixtureOn(ref: RunningReference): Promise<Fixture> {
  const deployment = (await ref.call('controlPlane', 'POST', '/v2/deployments', createBodies.internal_source('corpus-fixture'))).body;
  const assistant = (await ref.call('agentServer', 'POST', '/assistants', { graph_id: 'echo', name: 'fixture' })).body;
  const thread = (await ref.call('agentServer', 'POST', '/threads', {})).body;
  const uploaded = (await ref.call('experimentUpload', 'POST', '/api/v1/datasets/upload-experiment', upload({ experiment_name: 'corpus-fixture-experiment', dataset_name: 'corpus-fixture-dataset' }))).body;
  return {
    deployment: deployment.id,
    revision: deployment.latest_revision_id,
    assistant: assistant.assistant_id,
    thread: thread.thread_id,
    dataset: uploaded.dataset.id,
    session: uploaded.experiment.id,
    id: '00000000-0000-4000-8000-000000000000',
  };
}

const fill = (path: string, fixture: Fixture, id?: string) => path.replace(/\{(\w+)\}/g, (_, key: string) => id ?? fixture[key]!);

interface Side {
  ref: RunningReference;
  fixture: Fixture;
}

/** A 4xx in the spec's error shape, or a success; never a 5xx. */
function expectSpecAnswer(reply: Reply, what: string): void {
  const seen = `${what} → ${reply.status} ${reply.text.slice(0, 200)}`;
  expect(reply.status, seen).toBeLessThan(500);
  if (reply.status < 400) return;
  if (reply.status === 422) expect(Array.isArray(reply.body?.detail), seen).toBe(true);
  else expect(typeof reply.body?.detail, seen).toBe('string');
}

describe('the bad-input corpus on the memory store and on PostgreSQL', () => {
  let sides: Side[];
  beforeAll(async () => {
    sides = [];
    for (const backend of ['memory', 'postgres'] as const) {
      const ref = await referenceOn(backend);
      sides.push({ ref, fixture: await fixtureOn(ref) });
    }
  });
  afterAll(async () => {
    for (const side of sides ?? []) await side.ref.close();
  });

  /** Sends one request to both stores; returns both replies after checking they agree. */
  async function both(endpoint: Endpoint, body: Buffer | string | undefined, headers: Record<string, string> = {}, id?: string): Promise<Reply[]> {
    const replies: Reply[] = [];
    for (const { ref, fixture } of sides) {
      const path = fill(endpoint.path, fixture, id);
      const reply = await ref.call(endpoint.listener, endpoint.method, path, body, headers);
      expectSpecAnswer(reply, `${endpoint.method} ${path.slice(0, 120)}`);
      replies.push(reply);
    }
    expect(replies[1]!.status, `${endpoint.method} ${endpoint.path}: memory answered ${replies[0]!.status}, PostgreSQL ${replies[1]!.status} (${replies[1]!.text.slice(0, 200)})`).toBe(replies[0]!.status);
    return replies;
  }

  const snapshots = () => Promise.all(sides.map((side) => side.ref.snapshot()));

  it('refuses every body that breaks a reading limit, on every endpoint, and stores nothing', async () => {
    const before = await snapshots();
    for (const endpoint of WITH_BODY) {
      for (const [what, body, headers] of REFUSED_WHILE_READ) {
        const [reply] = await both(endpoint, body, headers);
        expect(reply!.status, `${what} to ${endpoint.method} ${endpoint.path}`).toBeGreaterThanOrEqual(400);
      }
    }
    for (const endpoint of WITH_BODY.filter((e) => e.method === 'POST')) {
      const [reply] = await both(endpoint, OVER_LIMIT[endpoint.listener]);
      expect(reply!.status, `a body over the limit to ${endpoint.method} ${endpoint.path}`).toBe(413);
    }
    expect(await snapshots()).toEqual(before);
  });

  it('answers out-of-range values alike on both stores; a refusal changes nothing', async () => {
    let before = await snapshots();
    for (const endpoint of WITH_BODY) {
      for (const [what, body] of OUT_OF_RANGE) {
        const [reply] = await both(endpoint, body);
        const after = await snapshots();
        if (reply!.status >= 400) expect(after, `${what} to ${endpoint.method} ${endpoint.path} was refused but changed the state`).toEqual(before);
        before = after;
      }
    }
  });

  it('refuses bad ids, encodings and queries in the URL on every endpoint, and stores nothing', async () => {
    const before = await snapshots();
    for (const endpoint of WITH_ID) {
      for (const id of BAD_IDS) {
        const [reply] = await both(endpoint, endpoint.valid ? JSON.stringify(endpoint.valid()) : undefined, {}, id);
        expect(reply!.status, `${endpoint.method} ${endpoint.path} with id ${id.slice(0, 20)}`).toBeGreaterThanOrEqual(400);
      }
    }
    for (const endpoint of ENDPOINTS.filter((e) => e.method === 'GET')) {
      for (const query of ['?limit=99999999999999999999', '?offset=-1', '?limit=%ff', '?name=%00', '?name_contains=%ED%A0%80', `?name=${'q'.repeat(6_000)}`]) {
        await both({ ...endpoint, path: `${endpoint.path}${query}` }, undefined);
      }
    }
    expect(await snapshots()).toEqual(before);
  });

  it('answers oversized headers with 431 in the spec shape on every listener', async () => {
    for (const listener of ['controlPlane', 'agentServer', 'experimentUpload'] as const) {
      for (const { ref } of sides) {
        const reply = await getWithOversizedHeaders(ref.server.urls[listener]);
        expect(reply.status).toBe(431);
        expect(JSON.parse(reply.text)).toEqual({ detail: expect.any(String) });
      }
    }
  });

  it('answers generated bodies alike on both stores, never 5xx, and a refusal changes nothing', async () => {
    const anything = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ unit: 'binary', maxLength: 20 }), fc.constant(null), fc.integer(), fc.constant(1e308));
    const mutated = (endpoint: Endpoint) => {
      const valid = endpoint.valid!();
      const keys = Object.keys(valid);
      const key = keys.length > 0 ? fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 8 })) : fc.string({ maxLength: 8 });
      return fc.oneof(
        anything,
        fc.record({ key, value: fc.option(anything, { nil: undefined }) }).map(({ key, value }) => {
          const copy: Record<string, unknown> = { ...valid };
          if (value === undefined) delete copy[key];
          else copy[key] = value;
          return copy;
        }),
      );
    };
    const request = fc.constantFrom(...WITH_BODY.filter((e) => e.valid)).chain((endpoint) => mutated(endpoint).map((body) => ({ endpoint, body })));
    let before = await snapshots();
    await fc.assert(
      fc.asyncProperty(request, async ({ endpoint, body }) => {
        const [reply] = await both(endpoint, JSON.stringify(body));
        const after = await snapshots();
        if (reply!.status >= 400) expect(after, `${endpoint.method} ${endpoint.path} was refused but changed the state`).toEqual(before);
        before = after;
      }),
      { numRuns: 50 },
    );
  });
});
