// Bad input never gets a 5xx, and a refused request changes nothing: generated upload bodies
// (valid, nearly valid and broken), then a list of malformed requests, on both stores.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { row, upload } from './bodies.ts';
import { BACKENDS, sendRequest, startOn, type ExperimentUploadServer } from './experiment-upload-server.ts';

const UPLOAD = '/api/v1/datasets/upload-experiment';
const DATASET_POOL = ['pool-a', 'pool-b', 'pool-c'];
const BASE_MS = Date.UTC(2024, 7, 3);

const isoAt = (ms: number, style: 'z' | 'naive' | 'offset') => {
  const iso = new Date(ms).toISOString();
  if (style === 'z') return iso;
  if (style === 'naive') return iso.slice(0, -1);
  const shifted = new Date(ms + 2 * 3600_000).toISOString().slice(0, -1);
  return `${shifted}+02:00`;
};

const style = fc.constantFrom<'z' | 'naive' | 'offset'>('z', 'naive', 'offset');

/** A row inside the window, or (sometimes) 1 ms before its start or after its end. */
const rowArb = (startMs: number, endMs: number) =>
  fc
    .record({
      a: fc.integer({ min: startMs, max: endMs }),
      b: fc.integer({ min: startMs, max: endMs }),
      outside: fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 0, -1, 1),
      style,
      scores: fc.array(
        fc.record(
          { key: fc.string({ maxLength: 185 }), score: fc.double({ noNaN: true }), value: fc.string(), feedback_source: fc.record({ type: fc.constantFrom('api', 'model') }) },
          { requiredKeys: ['key'] },
        ),
        { maxLength: 2 },
      ),
      error: fc.option(fc.string(), { nil: undefined }),
    })
    .map(({ a, b, outside, style: s, scores, error }) => {
      const rowStart = outside < 0 ? startMs - 1 : Math.min(a, b);
      const rowEnd = outside > 0 ? endMs + 1 : Math.max(a, b);
      return row({ start_time: isoAt(rowStart, s), end_time: isoAt(rowEnd, s), evaluation_scores: scores, ...(error === undefined ? {} : { error }) });
    });

const validish = fc
  .record({ startMs: fc.integer({ min: 0, max: 10_000 }), span: fc.integer({ min: 0, max: 10_000 }), style })
  .chain(({ startMs, span, style: s }) =>
    fc.record({
      experiment_name: fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), fc.constant('reused-name')),
      experiment_start_time: fc.constant(isoAt(BASE_MS + startMs, s)),
      experiment_end_time: fc.constant(isoAt(BASE_MS + startMs + span, s)),
      dataset_name: fc.option(fc.constantFrom(...DATASET_POOL), { nil: undefined }),
      dataset_id: fc.option(fc.constantFrom('7f3c0bb6-5b1e-4c4e-9a86-2f1f6f0e0c01', randomUUID()), { nil: undefined }),
      experiment_metadata: fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: undefined }),
      results: fc.array(rowArb(BASE_MS + startMs, BASE_MS + startMs + span), { maxLength: 4 }),
    }),
  )
  .map((body) => JSON.parse(JSON.stringify(body)) as Record<string, unknown>);

/** Breaks a body: drops a field, or puts an arbitrary value somewhere. */
const mutation = fc.oneof(
  { arbitrary: fc.constant((b: Record<string, unknown>) => b), weight: 5 },
  fc.constantFrom('experiment_name', 'experiment_start_time', 'experiment_end_time', 'results').map((f) => (b: Record<string, unknown>) => {
    const copy = { ...b };
    delete copy[f];
    return copy;
  }),
  fc
    .tuple(fc.constantFrom('experiment_name', 'experiment_start_time', 'dataset_id', 'dataset_name', 'results', 'summary_experiment_scores', 'experiment_metadata'), fc.jsonValue())
    .map(([f, v]) => (b: Record<string, unknown>) => ({ ...b, [f]: v })),
  fc
    .tuple(fc.constantFrom('row_id', 'inputs', 'start_time', 'end_time', 'evaluation_scores', 'error', 'run_metadata'), fc.jsonValue())
    .map(([f, v]) => (b: Record<string, unknown>) => ({ ...b, results: [...(Array.isArray(b.results) ? b.results : []), { ...row(), [f]: v }] })),
  fc.jsonValue().map((v) => () => v),
);

describe.each(BACKENDS)('bad input (%s store)', (backend) => {
  let server: ExperimentUploadServer;
  beforeAll(async () => {
    server = await startOn(backend);
  });
  afterAll(async () => server.close());

  /** What an upload changes (statistics left out: they fill on their own after statsDelayMs). */
  async function snapshot(): Promise<unknown> {
    const all = async (path: string) => {
      const items: unknown[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await server.request('GET', `${path}${path.includes('?') ? '&' : '?'}limit=100&offset=${offset}`);
        expect(page.status).toBe(200);
        items.push(...page.body);
        if (page.body.length < 100) return items;
      }
    };
    const datasets = (await all('/api/v1/datasets')) as Record<string, unknown>[];
    const sessions = (await all('/api/v1/sessions')) as Record<string, unknown>[];
    return {
      datasets: datasets.map(({ id, name, example_count, session_count, modified_at, last_session_start_time }) => ({ id, name, example_count, session_count, modified_at, last_session_start_time })),
      sessions: sessions.map(({ id, name, reference_dataset_id }) => ({ id, name, reference_dataset_id })),
    };
  }

  it('never answers 5xx to a generated body, and a refused upload changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(validish, mutation, async (body, mutate) => {
        const before = await snapshot();
        const reply = await server.request('POST', UPLOAD, mutate(body));
        expect(reply.status).toBeLessThan(500);
        if (reply.status >= 400) {
          expect(reply.body).toHaveProperty('detail');
          expect(await snapshot()).toEqual(before);
        } else {
          expect(reply.body).toHaveProperty('dataset.externally_managed', true);
          expect(reply.body).toHaveProperty('experiment.run_count', null);
        }
      }),
      { numRuns: 60 },
    );
    // About 360 requests, most of them listings: on PostgreSQL under a busy machine's load this
    // took over a minute once (8 s on an idle one). The point is what comes back, not how fast.
  }, 180_000);

  it('answers malformed requests with documented 4xx bodies and changes nothing', async () => {
    const before = await snapshot();
    const raw = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
      sendRequest(server.url, 'POST', UPLOAD, body, { 'x-api-key': server.apiKey, ...headers });
    // Built as text: JSON.stringify itself overflows on such nesting.
    const deep = JSON.stringify(upload({ experiment_metadata: 'DEEP' })).replace('"DEEP"', '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000));
    const cases: [string, Promise<{ status: number; body: any }>, number][] = [
      ['invalid JSON', raw('{"experiment_name": '), 400],
      ['empty JSON body', raw(''), 400],
      ['XML body', raw('<x/>', { 'content-type': 'application/xml' }), 415],
      ['text body', raw('hello', { 'content-type': 'text/plain' }), 422],
      ['prototype pollution', raw('{"__proto__": {"x": 1}}'), 400],
      ['array body', server.request('POST', UPLOAD, [upload()]), 422],
      ['null body', raw('null'), 422],
      ['oversized body', raw(JSON.stringify(upload({ experiment_metadata: { pad: 'x'.repeat(10 * 1024 * 1024) } }))), 413],
      ['NUL in inputs', server.request('POST', UPLOAD, upload({ results: [row({ inputs: { q: 'a\u0000b' } })] })), 422],
      ['unpaired surrogate in a key', raw(JSON.stringify(upload({ results: [row({ inputs: { '\ud800': 1 } })] }))), 422],
      ['deep nesting', raw(deep), 422],
      ['row_id not a UUID', server.request('POST', UPLOAD, upload({ results: [row({ row_id: 'r1' })] })), 422],
      ['dataset_id not a UUID', server.request('POST', UPLOAD, upload({ dataset_id: 'abc' })), 422],
      ['inputs not an object', server.request('POST', UPLOAD, upload({ results: [row({ inputs: 'text' })] })), 422],
      ['score not a number', server.request('POST', UPLOAD, upload({ results: [row({ evaluation_scores: [{ key: 'k', score: 'high' }] })] })), 422],
      ['unknown route', server.request('POST', '/api/v1/datasets/upload-experiments', upload()), 404],
      ['NUL in a query', server.request('GET', '/api/v1/datasets?name=a%00b'), 422],
      ['NUL in a session query', server.request('GET', '/api/v1/sessions?name=%00'), 422],
      ['bad percent-encoding in a query', server.request('GET', '/api/v1/sessions?name=%ED%A0%80'), 200],
      ['NUL in a dataset name', server.request('POST', '/api/v1/datasets', { name: '\u0000' }), 422],
      ['non-UUID path', server.request('DELETE', '/api/v1/sessions/%00'), 422],
    ];
    for (const [name, pending, status] of cases) {
      const reply = await pending;
      expect(reply.status, name).toBe(status);
      if (status === 200) continue;
      expect(reply.body, name).toHaveProperty('detail');
      if (status === 422) expect(Array.isArray(reply.body.detail), name).toBe(true);
      else expect(typeof reply.body.detail, name).toBe('string');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('accepts an upload of many rows and huge numbers without error', async () => {
    const rows = Array.from({ length: 500 }, () => row({ evaluation_scores: [{ key: 'k', score: 1e308 }, { key: 'k', score: -1e308 }] }));
    const reply = await server.request('POST', UPLOAD, upload({ results: rows, dataset_name: `many-${randomUUID()}` }));
    expect(reply.status).toBe(200);
    expect(reply.body.dataset.example_count).toBe(500);
  });
});
