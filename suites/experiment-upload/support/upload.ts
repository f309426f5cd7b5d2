// Uploads over HTTP for the suites: bodies from generated cases with run-prefixed names and
// fresh ids, the upload request, and the parts of its answer. The spec shows no way to delete
// what an upload creates; every experiment and dataset name carries the run's prefix instead.
import { randomUUID } from 'node:crypto';
import { uploadBody, type UploadCase, type UploadIds } from '../../../generators/experiment-upload/upload.ts';
import type { Check, Exchange, Auth } from '../../../harness/conformance/index.ts';
import { isObject } from '../../../schemas/is-object.ts';

export type JsonObject = Record<string, unknown>;

export const UPLOAD_PATH = '/api/v1/datasets/upload-experiment';

/** Fresh names (run-prefixed) and ids for one upload. */
export function freshIds(t: Check, rows = 8): UploadIds {
  return {
    experimentName: t.name('experiment'),
    datasetName: t.name('dataset'),
    datasetId: randomUUID(),
    rowIds: Array.from({ length: rows }, () => randomUUID()),
  };
}

/** The body of a case with fresh names and ids (or the given ones, to repeat a dataset). */
export function bodyOf(t: Check, c: UploadCase, ids: Partial<UploadIds> = {}): JsonObject {
  return uploadBody(c, { ...freshIds(t, c.rows.length), ...ids });
}

export function upload(t: Check, body: JsonObject, auth: Auth = 'default'): Promise<Exchange> {
  return t.eu.post(UPLOAD_PATH, body, { auth });
}

export interface Uploaded {
  exchange: Exchange;
  dataset: JsonObject;
  experiment: JsonObject;
}


function status(exchange: Exchange): number | undefined {
  return exchange.response?.status;
}

/**
 * Uploads and requires success: a 2xx (the spec shows no exact status) that `requirement` relies
 * on (a well-formed upload is accepted, EU-REQ-001, unless the test's rule says more), with
 * dataset and experiment objects (EU-RESP-001).
 */
export async function uploadOk(t: Check, body: JsonObject, requirement = 'EU-REQ-001', what = 'The upload'): Promise<Uploaded> {
  const exchange = await upload(t, body);
  const code = status(exchange);
  t.expectOn(exchange, code !== undefined && code >= 200 && code < 300, { requirement, message: `${what} was not accepted.`, expected: 'HTTP 2xx with {dataset, experiment}' });
  const json = exchange.response?.json;
  t.expectOn(exchange, isObject(json) && isObject(json.dataset) && isObject(json.experiment), {
    requirement: 'EU-RESP-001',
    message: `${what} was accepted but the answer lacks dataset or experiment objects.`,
    expected: '{dataset: {...}, experiment: {...}}',
  });
  return { exchange, dataset: json.dataset as JsonObject, experiment: json.experiment as JsonObject };
}

/** Uploads and checks `requirement`: a refusal with a 4xx (the spec shows no error responses). */
export async function uploadRefused(t: Check, body: JsonObject, requirement: string, what: string): Promise<void> {
  const exchange = await upload(t, body);
  const code = status(exchange);
  t.expectOn(exchange, code !== undefined && code >= 400 && code < 500, { requirement, message: `${what} was not refused with a 4xx status.`, expected: 'HTTP 4xx' });
}

/**
 * GET /api/v1/sessions/{id} (profile endpoint `experiment-reads`): the experiment as stored now.
 * A read that fails is a failure of the rule the test judges through it.
 */
export async function readExperiment(t: Check, id: string, requirement: string): Promise<JsonObject> {
  const exchange = await t.eu.get(`/api/v1/sessions/${id}`);
  const json = exchange.response?.json;
  t.expectOn(exchange, status(exchange) === 200 && isObject(json), { requirement, message: `Reading experiment ${id} back failed.`, expected: 'HTTP 200 with the experiment' });
  return json as JsonObject;
}

/**
 * Polls the experiment until its statistics are filled, within statsMs: run_count has reached
 * `rows` and each of `fields` is non-null. The spec does not say they fill all at once, so a
 * target filling them one by one, or counting runs as they are persisted, is waited for.
 */
export function statsFilled(t: Check, id: string, requirement: string, until: { rows: number; fields: string[] }): Promise<JsonObject> {
  // Statistics that never fill are EU-STAT-002's failure; the rules that read them are then blocked.
  const filled = (e: JsonObject) =>
    typeof e.run_count === 'number' && e.run_count >= until.rows && until.fields.every((f) => e[f] !== null && e[f] !== undefined);
  return t.poll(() => readExperiment(t, id, requirement), filled, {
    what: `the statistics of experiment ${id} to be filled (run_count reaching ${until.rows}${until.fields.length > 0 ? `; ${until.fields.join(', ')} non-null` : ''})`,
    timeoutMs: t.profile.timeouts.statsMs,
    requirement: 'EU-STAT-002',
    intervalMs: Math.min(t.profile.pollIntervalMs, 1_000),
  });
}
