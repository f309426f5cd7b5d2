// The findings of the hostile-input review of the reference implementation, each reproduced with
// the request that found it, on both stores: every one now gets a documented 4xx (and the same
// answer on memory and PostgreSQL), and a refused request leaves nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ISSUES } from '../../../schemas/issues.ts';
import { MAX_VALUES_FULLY_CHECKED, validate } from '../../../schemas/index.ts';
import { MAX_NAME_CHARS } from '../../../reference-impl/names.ts';
import { DEFAULT_JSON_LIMITS } from '../../../reference-impl/json-body.ts';
import { createBodies, uniqueName } from '../control-plane/control-plane-server.ts';
import { row, upload } from '../experiment-upload/bodies.ts';
import { BACKENDS, getWithOversizedHeaders, LISTENERS, referenceOn, type Reply, type RunningReference } from './reference-on.ts';

const UPLOAD = '/api/v1/datasets/upload-experiment';

/** A 4xx whose body is the spec's error shape: `{detail: string}`, or a 422 `{detail: [{loc, msg, type}]}`. */
function expectSpecError(reply: Reply, status?: number): void {
  const what = `${reply.status} ${reply.text.slice(0, 300)}`;
  if (status !== undefined) expect(reply.status, what).toBe(status);
  expect(reply.status, what).toBeGreaterThanOrEqual(400);
  expect(reply.status, what).toBeLessThan(500);
  if (reply.status === 422) {
    expect(Array.isArray(reply.body?.detail), what).toBe(true);
    for (const issue of reply.body.detail) expect(issue, what).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
  } else {
    expect(reply.body, what).toEqual({ detail: expect.any(String) });
  }
}

/** A deployment body whose volumes[0].configMap holds `depth` levels of nested arrays. */
function nestedConfigMap(name: string, depth: number): string {
  const body = createBodies.external_container(name);
  const text = JSON.stringify({ ...body, source_config: { ...body.source_config, resource_spec: { cpu: 1, memory_mb: 1024, volumes: [{ name: 'v', configMap: { data: 'NEST' } }] } } });
  return text.replace('"NEST"', '['.repeat(depth) + ']'.repeat(depth));
}

describe('finding 1: a large array is refused, and its validation cannot overflow the stack', () => {
  it('validates 250,000 wrong volumes without a stack overflow, with a bounded list of problems', () => {
    const body = { ...createBodies.external_container(), source_config: { resource_spec: { volumes: Array.from({ length: 250_000 }, (_, i) => i) } } };
    const result = validate('DeploymentCreateRequest', body);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.length).toBeLessThanOrEqual(MAX_ISSUES + 1);
    expect(result.issues.at(-1)).toMatchObject({ loc: [], type: 'too_many_errors' });
  });
});

describe('finding 2: validation is bounded and linear', () => {
  it('lists at most MAX_ISSUES problems and counts the rest', () => {
    const count = MAX_VALUES_FULLY_CHECKED / 2;
    const result = validate('ExperimentUploadRequest', upload({ results: Array.from({ length: count }, (_, i) => i) }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toHaveLength(MAX_ISSUES + 1);
    expect(result.issues.at(-1)).toMatchObject({ loc: [], type: 'too_many_errors', msg: expect.stringMatching(new RegExp(`^${count - MAX_ISSUES} more problems`)) });
  });

  it('answers 100,000 wrong results with a short list', () => {
    const result = validate('ExperimentUploadRequest', upload({ results: Array.from({ length: 100_000 }, (_, i) => i) }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(JSON.stringify(result.issues).length).toBeLessThan(10_000);
  });

  it('takes time in proportion to the input, whatever the number of problems (a ratio, not a clock bound)', () => {
    // Valid rows with problems after them: the most work a body of that size can cause.
    const bodyOf = (n: number) => upload({ results: [...Array.from({ length: n }, () => row()), ...Array.from({ length: n }, (_, i) => i)] });
    const [small, large] = [bodyOf(4_000), bodyOf(32_000)];
    const timeOf = (body: unknown) => {
      const started = performance.now();
      validate('ExperimentUploadRequest', body);
      return performance.now() - started;
    };
    // The fastest of interleaved tries: a shared machine only ever makes a try slower, and
    // interleaving gives both sizes the same spells of contention and garbage collection.
    let [fastestSmall, fastestLarge] = [Infinity, Infinity];
    for (let i = 0; i < 12; i += 1) {
      fastestSmall = Math.min(fastestSmall, timeOf(small));
      fastestLarge = Math.min(fastestLarge, timeOf(large));
    }
    // Quadratic work would take 64 times as long for 8 times the input; linear takes 8.
    expect(fastestLarge / fastestSmall).toBeLessThan(24);
  }, 120_000);
});

describe.each(BACKENDS)('findings 1–5 over HTTP on %s', (backend) => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await referenceOn(backend, { mode: 'self-hosted' });
  });
  afterAll(() => ref.close());

  it('1: volumes of 250,000 numbers get a 422 naming the limit', async () => {
    const body = createBodies.external_container();
    const reply = await ref.call('controlPlane', 'POST', '/v2/deployments', { ...body, source_config: { ...body.source_config, resource_spec: { volumes: Array.from({ length: 250_000 }, () => 1) } } });
    expectSpecError(reply, 422);
    expect(reply.body.detail[0]).toMatchObject({ loc: ['body', 'source_config', 'resource_spec', 'volumes'], type: 'too_long' });
  });

  it('2: oversized arrays in an upload and in secrets get short 422s', async () => {
    const results = await ref.call('experimentUpload', 'POST', UPLOAD, upload({ results: Array.from({ length: 100_000 }, (_, i) => i) }));
    expectSpecError(results, 422);
    expect(results.text.length).toBeLessThan(10_000);
    const secrets = await ref.call('controlPlane', 'POST', '/v2/deployments', { ...createBodies.internal_source(), secrets: Array.from({ length: 300_000 }, () => 1) });
    expectSpecError(secrets, 422);
    expect(secrets.text.length).toBeLessThan(10_000);
    // Each wrong item is a problem: at most MAX_ISSUES are listed.
    const many = await ref.call('controlPlane', 'POST', '/v2/deployments', { ...createBodies.internal_source(), secrets: Array.from({ length: 1_000 }, (_, i) => i) });
    expectSpecError(many, 422);
    expect(many.body.detail).toHaveLength(MAX_ISSUES + 1);
    expect(many.body.detail.at(-1)).toMatchObject({ loc: ['body'], type: 'too_many_errors' });
  });

  it('3: 5,000 levels inside volumes[0].configMap get a 422 and leave no tracing project behind', async () => {
    const name = uniqueName('deep');
    const before = await ref.snapshot();
    const reply = await ref.call('controlPlane', 'POST', '/v2/deployments', nestedConfigMap(name, 5_000));
    expectSpecError(reply, 422);
    expect(reply.body.detail[0].type).toBe('too_deep');
    expect(await ref.snapshot()).toEqual(before);
    const valid = await ref.call('controlPlane', 'POST', '/v2/deployments', createBodies.external_container(name));
    expect(valid.status, valid.text).toBe(201);
  });

  it('3: both stores take nesting up to the depth limit and refuse one level more', async () => {
    // Levels above the nested arrays: body, source_config, resource_spec, volumes, volumes[0], configMap.
    const room = DEFAULT_JSON_LIMITS.depth - 6;
    const atLimit = await ref.call('controlPlane', 'POST', '/v2/deployments', nestedConfigMap(uniqueName('at-limit'), room));
    const over = await ref.call('controlPlane', 'POST', '/v2/deployments', nestedConfigMap(uniqueName('over'), room + 1));
    expect(atLimit.status, atLimit.text).toBe(201);
    expectSpecError(over, 422);
  });

  it('4: overlong names, NUL in a name and out-of-range versions get the same 4xx as on memory', async () => {
    const long = 'n'.repeat(3_000);
    const nameReply = await ref.call('controlPlane', 'POST', '/v2/deployments', createBodies.internal_source(long));
    expectSpecError(nameReply, 422);
    expect(nameReply.body.detail[0]).toMatchObject({ loc: ['body', 'name'], type: 'string_too_long' });
    expectSpecError(await ref.call('experimentUpload', 'POST', UPLOAD, upload({ experiment_name: long })), 422);
    expectSpecError(await ref.call('experimentUpload', 'POST', UPLOAD, upload({ dataset_name: long })), 422);
    expectSpecError(await ref.call('experimentUpload', 'POST', '/api/v1/datasets', { name: long }), 422);
    const atLimit = await ref.call('controlPlane', 'POST', '/v2/deployments', createBodies.internal_source('é'.repeat(MAX_NAME_CHARS)));
    expect(atLimit.status, atLimit.text).toBe(201);
    expectSpecError(await ref.call('controlPlane', 'POST', '/v2/deployments', createBodies.internal_source(`nul\u0000name`)), 422);
    expectSpecError(await ref.call('experimentUpload', 'POST', UPLOAD, upload({ experiment_name: 'nul\u0000' })), 422);
    const assistant = await ref.call('agentServer', 'POST', '/assistants', { graph_id: 'echo' });
    for (const version of ['2147483648', '1e308']) {
      const reply = await ref.call('agentServer', 'POST', `/assistants/${assistant.body.assistant_id}/latest`, `{"version":${version}}`);
      expectSpecError(reply, 404);
    }
  });

  it('5: errors raised before any route runs have the spec shape on every listener', async () => {
    const jsonRoute = { controlPlane: '/v2/deployments', agentServer: '/assistants', experimentUpload: UPLOAD } as const;
    for (const listener of LISTENERS) {
      expectSpecError(await ref.call(listener, 'PATCH', '/v2/deployments/%ff', {}), 400);
      const longId = await ref.call(listener, 'GET', `/v2/deployments/${'a'.repeat(101)}`);
      expectSpecError(longId);
      expect(longId.status).not.toBe(414);
      expectSpecError(await ref.call(listener, 'POST', jsonRoute[listener], '{"name": '), 400);
      expectSpecError(await ref.call(listener, 'POST', jsonRoute[listener], '{}', { 'content-type': 'application/xml' }), 415);
      expectSpecError(await ref.call(listener, 'POST', jsonRoute[listener], Buffer.from([0x7b, 0xff, 0x7d])), 400);
      const headers = await getWithOversizedHeaders(ref.server.urls[listener]);
      expect(headers.status).toBe(431);
      expect(JSON.parse(headers.text)).toEqual({ detail: expect.any(String) });
    }
    const patch = await ref.call('controlPlane', 'PATCH', '/v2/deployments/%ff', {});
    expect(patch.body.detail).toMatch(/percent-encoding/);
  });
});

describe.each(BACKENDS)('finding 7: expired upload grants on %s', (backend) => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await referenceOn(backend);
  });
  afterAll(() => ref.close());

  it('are purged when upload URLs are handed out; grants in use stay', async () => {
    const deployment = (await ref.call('controlPlane', 'POST', '/v2/deployments', createBodies.internal_source())).body;
    const first = await ref.call('controlPlane', 'POST', `/v2/deployments/${deployment.id}/upload-url`);
    const used = await ref.call('controlPlane', 'POST', `/v2/deployments/${deployment.id}/upload-url`);
    const put = await fetch(used.body.upload_url, { method: 'PUT', headers: { 'content-type': 'application/gzip' }, body: new Uint8Array([0x1f, 0x8b, 0, 0]) });
    expect(put.status).toBe(200);
    // Two hours later: both grants have expired; the one never used is purged by the next hand-out.
    const realNow = Date.now;
    Date.now = () => realNow() + 2 * 60 * 60 * 1000;
    try {
      const later = await ref.call('controlPlane', 'POST', `/v2/deployments/${deployment.id}/upload-url`);
      expect(later.status).toBe(200);
    } finally {
      Date.now = realNow;
    }
    const unused = await fetch(first.body.upload_url, { method: 'PUT', headers: { 'content-type': 'application/gzip' }, body: new Uint8Array([0x1f, 0x8b, 0, 0]) });
    expect(unused.status).toBe(403);
    const patch = await ref.call('controlPlane', 'PATCH', `/v2/deployments/${deployment.id}`, { source_revision_config: { source_tarball_path: used.body.object_path } });
    expect(patch.status, patch.text).toBe(200);
    const gone = await ref.call('controlPlane', 'PATCH', `/v2/deployments/${deployment.id}`, { source_revision_config: { source_tarball_path: first.body.object_path } });
    expect(gone.status, gone.text).toBe(400);
  });
});
