// Statistics are null in the upload response and filled once statsDelayMs has passed; the delay
// is kept in the store, so it holds across a restart and across two processes on one database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../../schemas/index.ts';
import { row, upload } from './bodies.ts';
import { BACKENDS, databaseFor, startOn, startExperimentUpload, testOptions, type ExperimentUploadServer } from './experiment-upload-server.ts';

const UPLOAD = '/api/v1/datasets/upload-experiment';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Three runs of 2 s, 4 s and 10 s (one failing), with feedback on two keys. */
const measuredUpload = () =>
  upload({
    results: [
      row({ start_time: '2024-08-03T00:10:00Z', end_time: '2024-08-03T00:10:02Z', evaluation_scores: [{ key: 'correct', score: 1 }, { key: 'tone', value: 'polite' }] }),
      row({ start_time: '2024-08-03T00:20:00', end_time: '2024-08-03T00:20:04', evaluation_scores: [{ key: 'correct', score: 0 }] }),
      row({ start_time: '2024-08-03T02:30:00+02:00', end_time: '2024-08-03T00:30:10.5Z', error: 'timeout', evaluation_scores: [] }),
    ],
    summary_experiment_scores: [{ key: 'overall', score: 0.75 }],
  });

async function pollFilled(server: ExperimentUploadServer, id: string, timeoutMs = 5000): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await server.request('GET', `/api/v1/sessions/${id}`);
    expect(reply.status).toBe(200);
    if (reply.body.run_count !== null || Date.now() > deadline) return reply.body;
    await sleep(25);
  }
}

function expectFilled(experiment: Record<string, any>): void {
  expect(validate('UploadedExperiment', experiment)).toEqual({ ok: true });
  expect(experiment.run_count).toBe(3);
  expect(experiment.latency_p50).toBe(4);
  expect(experiment.latency_p99).toBeCloseTo(4 + (10.5 - 4) * 0.98, 9);
  expect(experiment.error_rate).toBeCloseTo(1 / 3, 9);
  expect(experiment.last_run_start_time).toBe('2024-08-03T00:30:00+00:00');
  expect(experiment.feedback_stats.correct).toMatchObject({ n: 2, avg: 0.5 });
  expect(experiment.feedback_stats.tone).toMatchObject({ n: 1, avg: null, values: { polite: 1 } });
  expect(experiment.session_feedback_stats.overall).toMatchObject({ n: 1, avg: 0.75 });
  for (const field of ['first_token_p50', 'first_token_p99', 'total_tokens', 'prompt_tokens', 'completion_tokens', 'total_cost', 'prompt_cost', 'completion_cost']) {
    expect(experiment[field], field).toBeNull();
  }
}

/** Long enough for the "still null" reads to happen before it, even on a busy machine. */
const STATS_DELAY_MS = 800;

describe.each(BACKENDS)('statistics (%s store)', (backend) => {
  let server: ExperimentUploadServer;
  beforeAll(async () => {
    server = await startOn(backend, { statsDelayMs: STATS_DELAY_MS });
  });
  afterAll(async () => server.close());

  it('are null right after the upload and filled after statsDelayMs, with latency from the row times', async () => {
    const sentAt = Date.now();
    const reply = await server.request('POST', UPLOAD, measuredUpload());
    expect(reply.status).toBe(200);
    const id = reply.body.experiment.id;
    expect(reply.body.experiment.run_count).toBeNull();
    const early = await server.request('GET', `/api/v1/sessions/${id}`);
    expect(early.body.run_count).toBeNull();
    expect(early.body.latency_p50).toBeNull();
    expect(early.body.feedback_stats).toBeNull();
    const filled = await pollFilled(server, id);
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(STATS_DELAY_MS);
    expectFilled(filled);
  });

  it('count feedback keys and values that are object property names', async () => {
    const scores = [{ key: '__proto__', value: '__proto__', score: 1 }, { key: '__proto__', value: 'constructor' }];
    const reply = await server.request('POST', UPLOAD, upload({ results: [row({ evaluation_scores: scores })] }));
    const stats = (await pollFilled(server, reply.body.experiment.id)).feedback_stats;
    expect(Object.keys(stats)).toEqual(['__proto__']);
    expect(Object.entries(stats['__proto__'].values)).toEqual([['__proto__', 1], ['constructor', 1]]);
    expect(stats['__proto__'].n).toBe(2);
  });
});

describe('statistics on PostgreSQL across restarts and processes', () => {
  let database: Awaited<ReturnType<typeof databaseFor>>;
  beforeAll(async () => {
    database = await databaseFor('postgres');
  });
  afterAll(async () => database.drop());

  it('fill after a restart, and keep datasets and experiments', async () => {
    const options = testOptions({ databaseUrl: database.url, statsDelayMs: 300 });
    const first = await startExperimentUpload(options);
    const reply = await first.request('POST', UPLOAD, measuredUpload());
    await first.close();
    expect(reply.status).toBe(200);

    const second = await startExperimentUpload(options);
    try {
      const dataset = await second.request('GET', `/api/v1/datasets/${reply.body.dataset.id}`);
      expect(dataset.body).toMatchObject({ id: reply.body.dataset.id, example_count: 3, session_count: 1 });
      expectFilled(await pollFilled(second, reply.body.experiment.id));
      const again = await second.request('POST', UPLOAD, { ...measuredUpload(), experiment_name: reply.body.experiment.name });
      expect(again.status).toBe(409);
    } finally {
      await second.close();
    }
  });

  it('are seen alike by two processes sharing the database, which group each other uploads', async () => {
    const options = testOptions({ databaseUrl: database.url });
    const [a, b] = [await startExperimentUpload(options), await startExperimentUpload(options)];
    try {
      const body = measuredUpload();
      const results = await Promise.all([
        a.request('POST', UPLOAD, { ...body, experiment_name: `${body.experiment_name}-a` }),
        b.request('POST', UPLOAD, { ...body, experiment_name: `${body.experiment_name}-b` }),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200]);
      expect(results[0]!.body.dataset.id).toBe(results[1]!.body.dataset.id);
      const filled = await pollFilled(a, results[1]!.body.experiment.id);
      expectFilled(filled);
      expect((await b.request('GET', `/api/v1/datasets/${results[0]!.body.dataset.id}`)).body.session_count).toBe(2);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
