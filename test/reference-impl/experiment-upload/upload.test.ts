// POST /api/v1/datasets/upload-experiment over HTTP (spec 2.8, 4.3), on both stores.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../../schemas/index.ts';
import { row, uniqueName, upload, without } from './bodies.ts';
import { BACKENDS, startOn, type ExperimentUploadServer } from './experiment-upload-server.ts';

const UPLOAD = '/api/v1/datasets/upload-experiment';

const DATASET_FIELDS = [
  'name', 'description', 'created_at', 'data_type', 'inputs_schema_definition', 'outputs_schema_definition',
  'externally_managed', 'id', 'tenant_id', 'example_count', 'session_count', 'modified_at', 'last_session_start_time',
];
const EXPERIMENT_FIELDS = [
  'start_time', 'end_time', 'extra', 'name', 'description', 'default_dataset_id', 'reference_dataset_id', 'trace_tier', 'id',
  'run_count', 'latency_p50', 'latency_p99', 'first_token_p50', 'first_token_p99', 'total_tokens', 'prompt_tokens',
  'completion_tokens', 'total_cost', 'prompt_cost', 'completion_cost', 'tenant_id', 'last_run_start_time',
  'last_run_start_time_live', 'feedback_stats', 'session_feedback_stats', 'run_facets', 'error_rate', 'streaming_rate',
  'test_run_number',
];
const STATISTICS = ['run_count', 'latency_p50', 'latency_p99', 'feedback_stats', 'error_rate', 'last_run_start_time'];
const USAGE = ['first_token_p50', 'first_token_p99', 'total_tokens', 'prompt_tokens', 'completion_tokens', 'total_cost', 'prompt_cost', 'completion_cost'];

describe.each(BACKENDS)('experiment upload (%s store)', (backend) => {
  let server: ExperimentUploadServer;
  beforeAll(async () => {
    server = await startOn(backend);
  });
  afterAll(async () => server.close());

  const post = (body: unknown) => server.request('POST', UPLOAD, body);
  const datasetCount = async () => (await server.request('GET', '/api/v1/datasets?limit=100')).body.length as number;

  it('accepts a full upload and answers 200 with every field of the dataset and the experiment', async () => {
    const body = upload();
    const reply = await post(body);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body.dataset).sort()).toEqual([...DATASET_FIELDS].sort());
    expect(Object.keys(reply.body.experiment).sort()).toEqual([...EXPERIMENT_FIELDS].sort());
    const { dataset, experiment } = reply.body;
    expect(dataset).toMatchObject({
      name: body.dataset_name, description: 'questions', data_type: 'kv', externally_managed: true,
      tenant_id: server.tenantId, example_count: 2, session_count: 1, last_session_start_time: '2024-08-03T00:00:00+00:00',
      inputs_schema_definition: null, outputs_schema_definition: null,
    });
    expect(experiment).toMatchObject({
      name: body.experiment_name, description: 'an experiment run elsewhere', start_time: '2024-08-03T00:00:00+00:00',
      end_time: '2024-08-03T01:00:00+00:00', extra: { metadata: { commit: 'abc123' } }, reference_dataset_id: dataset.id,
      default_dataset_id: null, trace_tier: 'longlived', tenant_id: server.tenantId, test_run_number: 1,
    });
    expect(experiment.id).toMatch(/^[0-9a-f-]{36}$/);
    for (const field of [...STATISTICS, ...USAGE]) expect(experiment[field], field).toBeNull();
    expect(validate('ExperimentUploadResponse', reply.body)).toEqual({ ok: true });
    expect(validate('UploadedDataset', (await server.request('GET', `/api/v1/datasets/${dataset.id}`)).body)).toEqual({ ok: true });
    expect(validate('UploadedExperiment', (await server.request('GET', `/api/v1/sessions/${experiment.id}`)).body)).toEqual({ ok: true });
  });

  it('refuses a body without a required field with a 422 naming it', async () => {
    for (const field of ['experiment_name', 'experiment_start_time', 'experiment_end_time', 'results']) {
      const reply = await post(without(upload(), field));
      expect(reply.status, field).toBe(422);
      expect(reply.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', field] }));
    }
    for (const field of ['row_id', 'inputs', 'start_time', 'end_time']) {
      const broken = upload({ results: [row(), without(row(), field)] });
      const reply = await post(broken);
      expect(reply.status, field).toBe(422);
      expect(reply.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'results', 1, field] }));
    }
  });

  it('requires dataset_id or dataset_name (rule 1)', async () => {
    const before = await datasetCount();
    const reply = await post(without(upload(), 'dataset_name', 'dataset_id'));
    expect(reply.status).toBe(422);
    expect(reply.body.detail[0]).toMatchObject({ loc: ['body'], type: 'missing' });
    expect(reply.body.detail[0].msg).toMatch(/dataset_id or dataset_name/);
    expect(await datasetCount()).toBe(before);
  });

  it('generates a name for a new dataset_id and an id for a new dataset_name (rule 2)', async () => {
    const id = randomUUID();
    const byId = await post(without(upload({ dataset_id: id }), 'dataset_name'));
    expect(byId.status).toBe(200);
    expect(byId.body.dataset.id).toBe(id);
    expect(byId.body.dataset.name).toEqual(expect.any(String));
    expect(byId.body.dataset.name.length).toBeGreaterThan(0);

    const name = uniqueName('named');
    const byName = await post(upload({ dataset_name: name }));
    expect(byName.status).toBe(200);
    expect(byName.body.dataset.name).toBe(name);
    expect(byName.body.dataset.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('groups repeated dataset ids, names and pairs under one dataset (rule 3)', async () => {
    const id = randomUUID();
    const first = await post(without(upload({ dataset_id: id }), 'dataset_name'));
    const second = await post(without(upload({ dataset_id: id.toUpperCase() }), 'dataset_name'));
    expect(second.body.dataset.id).toBe(first.body.dataset.id);
    expect(second.body.dataset.session_count).toBe(2);
    expect(second.body.experiment.test_run_number).toBe(2);

    const name = uniqueName('group');
    const a = await post(upload({ dataset_name: name }));
    const b = await post(upload({ dataset_name: name }));
    expect(b.body.dataset.id).toBe(a.body.dataset.id);

    const pairId = randomUUID();
    const pairName = uniqueName('pair');
    const p1 = await post(upload({ dataset_id: pairId, dataset_name: pairName }));
    const p2 = await post(upload({ dataset_id: pairId, dataset_name: pairName }));
    const p3 = await post(upload({ dataset_name: pairName }));
    expect(p1.body.dataset).toMatchObject({ id: pairId, name: pairName });
    expect([p2.body.dataset.id, p3.body.dataset.id]).toEqual([pairId, pairId]);
    const read = await server.request('GET', `/api/v1/datasets/${pairId}`);
    expect(read.body.session_count).toBe(3);

    const other = await post(upload({ dataset_name: uniqueName('other') }));
    expect(other.body.dataset.id).not.toBe(a.body.dataset.id);
  });

  it('counts a row_id repeated across experiments of a dataset as one example', async () => {
    const shared = randomUUID();
    const name = uniqueName('examples');
    await post(upload({ dataset_name: name, results: [row({ row_id: shared }), row()] }));
    const second = await post(upload({ dataset_name: name, results: [row({ row_id: shared }), row({ row_id: shared.toUpperCase() })] }));
    expect(second.status).toBe(200);
    expect(second.body.dataset.example_count).toBe(2);
  });

  it('puts concurrent uploads with the same new dataset_name into one dataset', async () => {
    const name = uniqueName('race');
    const replies = await Promise.all(Array.from({ length: 6 }, () => post(upload({ dataset_name: name }))));
    expect(replies.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(replies.map((r) => r.body.dataset.id)).size).toBe(1);
    expect(new Set(replies.map((r) => r.body.experiment.test_run_number))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
  });

  it('lets an existing dataset_id win over a different dataset_name, and refuses an unknown id with a taken name', async () => {
    const id = randomUUID();
    const name = uniqueName('owner');
    await post(upload({ dataset_id: id, dataset_name: name }));
    const renamed = await post(upload({ dataset_id: id, dataset_name: uniqueName('ignored') }));
    expect(renamed.status).toBe(200);
    expect(renamed.body.dataset).toMatchObject({ id, name });

    const before = await datasetCount();
    const clash = await post(upload({ dataset_id: randomUUID(), dataset_name: name }));
    expect(clash.status).toBe(409);
    expect(clash.body.detail).toContain(id);
    expect(await datasetCount()).toBe(before);
  });

  it('refuses a reused experiment name with 409 "Session already exists." and stores nothing', async () => {
    const body = upload();
    expect((await post(body)).status).toBe(200);
    const before = await datasetCount();
    const again = await post({ ...body, dataset_name: uniqueName('fresh') });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'Session already exists.' });
    expect(await datasetCount()).toBe(before);
  });

  it('refuses an experiment ending before it starts, and a row ending before it starts', async () => {
    const backwards = await post(upload({ experiment_start_time: '2024-08-03T02:00:00Z' }));
    expect(backwards.status).toBe(422);
    expect(backwards.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'experiment_end_time'] }));

    const badRow = await post(upload({ results: [row(), row({ start_time: '2024-08-03T00:30:00Z', end_time: '2024-08-03T00:29:59Z' })] }));
    expect(badRow.status).toBe(422);
    expect(badRow.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'results', 1, 'end_time'] }));
  });

  it('checks feedback: key at most 180 characters, config type enum, source type required', async () => {
    const withScore = (score: Record<string, unknown>) => upload({ results: [row({ evaluation_scores: [score] })] });
    expect((await post(withScore({ key: 'k'.repeat(180), score: 1 }))).status).toBe(200);
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ key: 'k'.repeat(181) }, ['key']],
      [{ key: 'x', feedback_config: { type: 'ordinal' } }, ['feedback_config', 'type']],
      [{ key: 'x', feedback_source: { metadata: {} } }, ['feedback_source', 'type']],
      [{ score: 1 }, ['key']],
      [{ key: 'x', feedback_config: { type: 'categorical', categories: [{ label: 'no value' }] } }, ['feedback_config', 'categories', 0, 'value']],
    ];
    for (const [score, loc] of cases) {
      const reply = await post(withScore(score));
      expect(reply.status, JSON.stringify(score)).toBe(422);
      expect(reply.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'results', 0, 'evaluation_scores', 0, ...loc] }));
    }
    const summary = await post(upload({ summary_experiment_scores: [{ key: 's', feedback_config: { type: 'wrong' } }] }));
    expect(summary.status).toBe(422);
    expect(summary.body.detail[0].loc).toEqual(['body', 'summary_experiment_scores', 0, 'feedback_config', 'type']);
  });

  it('accepts every feedback shape of 2.8', async () => {
    const score = {
      key: 'judge', score: 0.5, value: 'good', comment: 'ok', feedback_source: { type: 'model' },
      feedback_config: { type: 'categorical', min: 0, max: 1, categories: [{ value: 0, label: 'bad' }, { value: 1 }] },
      created_at: '2024-08-03T00:12:39', modified_at: '2024-08-03T00:12:39.123456+02:00', correction: { answer: '5' },
    };
    const reply = await post(upload({ results: [row({ evaluation_scores: [score, { key: 'c', correction: 'plain text' }] })] }));
    expect(reply.status).toBe(200);
  });
});
