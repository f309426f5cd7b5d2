// Negative self-tests of the experiment upload suites: the reference with its fault switches
// (those that do not get in each other's way share a run), and behind a proxy that breaks the
// rules no switch covers. Each rule must fail, for its own reason. (Statistics never filled,
// EU-STAT-002, and no grouping, EU-DS-004, share a run with an agent server switch: see
// ../agent-server/fault-switches.test.ts.)
import { randomUUID } from 'node:crypto';
import { afterAll, describe, test } from 'vitest';
import { instantOf } from '../../../generators/experiment-upload/datetimes.ts';
import { editJson, editRequestJson, startProxy, type Proxy, type ProxiedAnswer, type ProxiedRequest } from '../../../harness/selftest/proxy.ts';
import { certifyByUrl, startTarget, type Reference } from '../../support/reference-target.ts';
import { expectFailed } from '../../support/report-expectations.ts';

type Json = Record<string, unknown>;

const started: (Proxy | Reference)[] = [];
afterAll(async () => {
  for (const s of started.reverse()) await s.close();
});

async function brokenTarget(faults: string[], rules: (apiKey: string) => Parameters<typeof startProxy>[1]) {
  const target = await startTarget(faults);
  started.push(target);
  const proxy = await startProxy(target.server.urls.tracing, rules(target.apiKey));
  started.push(proxy);
  return { url: proxy.url, apiKey: target.apiKey };
}

const isUpload = (r: ProxiedRequest) => r.method === 'POST' && r.path === '/api/v1/datasets/upload-experiment';

/** Fills in every required field an upload lacks, as a too lenient server would. */
function fillRequired(body: Json): void {
  const rows = Array.isArray(body.results) ? (body.results as Json[]) : [];
  const start = (body.experiment_start_time ?? rows[0]?.start_time ?? '2024-01-01T00:00:00Z') as string;
  body.experiment_name ??= `filled-${randomUUID()}`;
  body.experiment_start_time ??= start;
  body.experiment_end_time ??= rows[0]?.end_time ?? start;
  body.results ??= [{ row_id: randomUUID(), inputs: {}, start_time: start, end_time: start }];
  for (const row of body.results as Json[]) {
    row.row_id ??= randomUUID();
    row.inputs ??= {};
    row.start_time ??= body.experiment_start_time;
    row.end_time ??= body.experiment_start_time;
    for (const f of (row.evaluation_scores ?? []) as Json[]) {
      f.key ??= 'filled';
      if (f.feedback_source) (f.feedback_source as Json).type ??= 'api';
      for (const c of ((f.feedback_config as Json | undefined)?.categories ?? []) as Json[]) c.value ??= 0;
    }
  }
}

/** True when a row lies exactly on an edge the way the edge cases put it (a too strict window). */
function rowOnEdge(body: Json): boolean {
  const start = instantOf(String(body.experiment_start_time));
  const end = instantOf(String(body.experiment_end_time));
  return ((body.results ?? []) as Json[]).some((row) => {
    const [a, b] = [instantOf(String(row.start_time)), instantOf(String(row.end_time))];
    return (a === start && b === end) || (a === b && (a === start || a === end));
  });
}

const CONSTANT_DATASET = '00000000-0000-4000-8000-00000000c0de';

describe('experiment upload suites fail a broken target', () => {
  test('fault switches: window, statistics at upload, tokens, dataset rules', async () => {
    const target = await startTarget([
      'eu.no-window-check',
      'eu.stats-filled-at-upload',
      'eu.tokens-not-null',
      'eu.dataset-required-not-enforced',
      'eu.internal-dataset-accepted',
    ]);
    started.push(target);
    const run = await certifyByUrl({
      tracingUrl: target.server.urls.tracing,
      apiKey: target.apiKey,
      requirements: ['EU-TW-002', 'EU-STAT-001', 'EU-STAT-003', 'EU-DS-001', 'EU-DS-006'],
    });
    expectFailed(run, {
      'EU-TW-002': /outside the window .* was not refused/,
      'EU-STAT-001': /Right after upload, .* are not null/,
      'EU-STAT-003': /At upload, .*tokens.* are not null/,
      'EU-DS-001': /neither dataset_id nor dataset_name was not refused/,
      'EU-DS-006': /was neither refused nor put in a different, externally managed dataset/,
    });
  });

  test('missing fields filled in, keys not checked, no dataset in the answer', async () => {
    const target = await brokenTarget(['eu.missing-dataset-in-response'], (apiKey) => ({
      request(r): ProxiedRequest {
        const keyed = { ...r, headers: { ...r.headers, 'x-api-key': apiKey } };
        return isUpload(r) ? editRequestJson(keyed, fillRequired) : keyed;
      },
    }));
    const run = await certifyByUrl({ tracingUrl: target.url, apiKey: target.apiKey, requirements: ['EU-REQ-002', 'EU-REQ-003', 'EU-REQ-004', 'EU-AUTH-001', 'EU-RESP-001'] });
    expectFailed(run, {
      'EU-REQ-002': /An upload without experiment_\w+|An upload without results/,
      'EU-REQ-003': /An upload without results\.\w+ was not refused/,
      'EU-REQ-004': /An upload without feedback\.[\w.]+ was not refused/,
      'EU-AUTH-001': /without an x-api-key header was not refused/,
      'EU-RESP-001': /lacks dataset or experiment/,
    });
  });

  test('edges refused, answers not carrying what was uploaded, one dataset for all, latency not from the rows', async () => {
    const target = await brokenTarget([], () => ({
      request(r): ProxiedRequest | ProxiedAnswer {
        if (!isUpload(r) || !rowOnEdge(JSON.parse(r.body.toString('utf8')) as Json)) return r;
        return { status: 422, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"detail":[{"loc":["body","results"],"msg":"row on the window edge","type":"value_error"}]}') };
      },
      answer(r, a) {
        if (isUpload(r)) {
          const sent = JSON.parse(r.body.toString('utf8')) as Json;
          return editJson(a, (json) => {
            const dataset = json.dataset as Json | undefined;
            const experiment = json.experiment as Json | undefined;
            if (dataset) Object.assign(dataset, { id: CONSTANT_DATASET, externally_managed: false, name: sent.dataset_name === undefined ? '' : `${String(dataset.name)}-renamed` });
            if (experiment) experiment.name = `${String(experiment.name)}-renamed`;
          });
        }
        if (r.method === 'GET' && r.path.startsWith('/api/v1/sessions/')) {
          return editJson(a, (s) => {
            for (const f of ['latency_p50', 'latency_p99']) if (typeof s[f] === 'number') s[f] = (s[f] as number) * 3;
          });
        }
        return a;
      },
    }));
    const run = await certifyByUrl({
      tracingUrl: target.url,
      apiKey: target.apiKey,
      requirements: ['EU-TW-001', 'EU-REQ-001', 'EU-RESP-002', 'EU-RESP-003', 'EU-DS-002', 'EU-DS-003', 'EU-DS-005', 'EU-STAT-004'],
    });
    expectFailed(run, {
      'EU-TW-001': /on both its edges was not accepted/,
      'EU-REQ-001': /A well-formed upload was not accepted/,
      'EU-RESP-002': /is not externally managed/,
      'EU-RESP-003': /does not carry the uploaded experiment_name/,
      'EU-DS-002': /has no generated name/,
      'EU-DS-003': /does not carry the dataset_name uploaded/,
      'EU-DS-005': /landed in one dataset/,
      'EU-STAT-004': /Rows lasting 1\.5 s each gave latency_p50/,
    });
  });
});
