// Each fault switch makes the one deviation faults.md describes (memory store; the switches act
// above the store).
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { EXPERIMENT_UPLOAD_FAULTS, type ExperimentUploadFault } from '../../../reference-impl/experiment-upload/faults.ts';
import { row, uniqueName, upload, without } from './bodies.ts';
import { startOn, type ExperimentUploadServer } from './experiment-upload-server.ts';

const UPLOAD = '/api/v1/datasets/upload-experiment';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('tracing fault switches', () => {
  let server: ExperimentUploadServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const start = async (fault: ExperimentUploadFault) => {
    server = await startOn('memory', { faults: [fault], statsDelayMs: 300 });
    return server;
  };

  it('each one is tested here', () => {
    expect(EXPERIMENT_UPLOAD_FAULTS).toHaveLength(8);
  });

  it('eu.no-window-check accepts rows outside the window', async () => {
    const s = await start('eu.no-window-check');
    const reply = await s.request('POST', UPLOAD, upload({ results: [row({ start_time: '2024-08-02T23:59:59.999Z' })] }));
    expect(reply.status).toBe(200);
  });

  it('eu.stats-filled-at-upload returns statistics in the upload response', async () => {
    const s = await start('eu.stats-filled-at-upload');
    const reply = await s.request('POST', UPLOAD, upload());
    expect(reply.body.experiment.run_count).toBe(2);
  });

  it('eu.tokens-not-null reports 0 tokens and costs', async () => {
    const s = await start('eu.tokens-not-null');
    const reply = await s.request('POST', UPLOAD, upload());
    expect(reply.body.experiment).toMatchObject({ total_tokens: 0, prompt_cost: 0 });
  });

  it('eu.no-grouping makes a new dataset for a repeated dataset_name', async () => {
    const s = await start('eu.no-grouping');
    const name = uniqueName('ds');
    const a = await s.request('POST', UPLOAD, upload({ dataset_name: name }));
    const b = await s.request('POST', UPLOAD, upload({ dataset_name: name }));
    expect(b.status).toBe(200);
    expect(b.body.dataset.id).not.toBe(a.body.dataset.id);
  });

  it('eu.dataset-required-not-enforced accepts an upload naming no dataset', async () => {
    const s = await start('eu.dataset-required-not-enforced');
    const reply = await s.request('POST', UPLOAD, without(upload(), 'dataset_name'));
    expect(reply.status).toBe(200);
  });

  it('eu.internal-dataset-accepted uploads into a platform-made dataset', async () => {
    const s = await start('eu.internal-dataset-accepted');
    const created = await s.request('POST', '/api/v1/datasets', { name: uniqueName('internal') });
    const reply = await s.request('POST', UPLOAD, without(upload({ dataset_id: created.body.id }), 'dataset_name'));
    expect(reply.status).toBe(200);
    expect(reply.body.dataset.id).toBe(created.body.id);
  });

  it('eu.stats-never-filled keeps statistics null', async () => {
    const s = await start('eu.stats-never-filled');
    const reply = await s.request('POST', UPLOAD, upload());
    await sleep(500);
    expect((await s.request('GET', `/api/v1/sessions/${reply.body.experiment.id}`)).body.run_count).toBeNull();
  });

  it('eu.missing-dataset-in-response leaves dataset out of the response', async () => {
    const s = await start('eu.missing-dataset-in-response');
    const reply = await s.request('POST', UPLOAD, upload({ dataset_id: randomUUID() }));
    expect(reply.status).toBe(200);
    expect(reply.body).not.toHaveProperty('dataset');
    expect(reply.body).toHaveProperty('experiment');
  });

  it('without faults the same requests are refused or conform', async () => {
    server = await startOn('memory', { statsDelayMs: 300 });
    expect((await server.request('POST', UPLOAD, upload({ results: [row({ start_time: '2024-08-02T23:59:59.999Z' })] }))).status).toBe(422);
    expect((await server.request('POST', UPLOAD, without(upload(), 'dataset_name'))).status).toBe(422);
    const ok = await server.request('POST', UPLOAD, upload());
    expect(ok.body.experiment).toMatchObject({ run_count: null, total_tokens: null });
    expect(ok.body).toHaveProperty('dataset');
    await sleep(500);
    expect((await server.request('GET', `/api/v1/sessions/${ok.body.experiment.id}`)).body.run_count).toBe(2);
  });
});
