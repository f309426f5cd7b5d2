// Proxy mutants of the experiment-upload: rules the fault switches do not break, each broken by a
// rewriting proxy in front of the reference.
import { randomUUID } from 'node:crypto';
import { instantOf } from '../../../generators/experiment-upload/datetimes.ts';
import { editJson, editRequestJson, type ProxiedAnswer, type ProxiedRequest, type ProxyRules } from '../../proxy/proxy.ts';
import type { ProxyMutant } from './mutant-record.ts';
import { anyKeyServed, missingKeyServed } from './key-rules.ts';

type Json = Record<string, unknown>;

const isUpload = (r: ProxiedRequest) => r.method === 'POST' && r.path === '/api/v1/datasets/upload-experiment';
const isSessionRead = (r: ProxiedRequest) => r.method === 'GET' && r.path.startsWith('/api/v1/sessions/');
const sentBody = (r: ProxiedRequest) => JSON.parse(r.body.toString('utf8')) as Json;
const rowsOf = (body: Json) => (Array.isArray(body.results) ? (body.results as Json[]) : []);

/** A rule rewriting upload requests only. */
const onUploads = (edit: (body: Json) => void): ProxyRules => ({ request: (r) => (isUpload(r) ? editRequestJson(r, edit) : r) });

/** A rule rewriting the answers of accepted uploads only, knowing what was sent. */
const onUploadAnswers = (edit: (answer: Json, sent: Json) => void): ProxyRules => ({
  answer: (r, a) => (isUpload(r) && a.status < 300 ? editJson(a, (json) => edit(json, sentBody(r))) : a),
});

/** A rule rewriting experiments read back once their statistics are filled. */
const onFilledStatistics = (edit: (experiment: Json) => void): ProxyRules => ({
  answer: (r, a) => (isSessionRead(r) ? editJson(a, (e) => void (typeof e.run_count === 'number' && edit(e))) : a),
});

/** The earliest (or latest) of datetime texts, as written. */
function extreme(texts: string[], latest: boolean): string | undefined {
  return [...texts].sort((a, b) => (instantOf(a) - instantOf(b)) * (latest ? -1 : 1))[0];
}

/** Fills in the top-level required fields an upload lacks, as a too lenient server would. */
function fillTopLevel(body: Json): void {
  const rows = rowsOf(body);
  const start = (body.experiment_start_time ??
    extreme(
      rows.map((r) => String(r.start_time)),
      false,
    ) ??
    '2024-01-01T00:00:00Z') as string;
  body.experiment_name ??= `filled-${randomUUID()}`;
  body.experiment_start_time ??= start;
  body.experiment_end_time ??=
    extreme(
      rows.map((r) => String(r.end_time)),
      true,
    ) ?? start;
  body.results ??= [{ row_id: randomUUID(), inputs: {}, start_time: start, end_time: start }];
}

/** Fills in the required fields a row lacks. */
function fillRows(body: Json): void {
  for (const row of rowsOf(body)) {
    row.row_id ??= randomUUID();
    row.inputs ??= {};
    row.start_time ??= body.experiment_start_time;
    row.end_time ??= body.experiment_start_time;
  }
}

/** Fills in the required fields a feedback lacks. */
function fillFeedback(body: Json): void {
  const feedback = [body.summary_experiment_scores, ...rowsOf(body).map((r) => r.evaluation_scores)].flatMap((list) =>
    Array.isArray(list) ? (list as Json[]) : [],
  );
  for (const f of feedback) {
    f.key ??= 'filled';
    if (f.feedback_source) (f.feedback_source as Json).type ??= 'api';
    ((f.feedback_config as Json | undefined)?.categories as Json[] | undefined)?.forEach((c, i) => void (c.value ??= i));
  }
}

/** The row instants of an upload, and its window. */
function windowOf(body: Json): { start: number; end: number; times: number[] } {
  return {
    start: instantOf(String(body.experiment_start_time)),
    end: instantOf(String(body.experiment_end_time)),
    times: rowsOf(body).flatMap((row) => [instantOf(String(row.start_time)), instantOf(String(row.end_time))]),
  };
}

const REFUSED_ON_EDGE: ProxiedAnswer = {
  status: 422,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from('{"detail":[{"loc":["body","results"],"msg":"row times must lie strictly inside the experiment window","type":"value_error"}]}'),
};

/** Rows 1 ms (up to a second) outside the window pass, as with datetimes cut to whole seconds: the proxy moves them onto the edge the reference accepts. */
function secondsWindow(body: Json): void {
  const { start, end } = windowOf(body);
  const second = (ms: number) => Math.floor(ms / 1000);
  for (const row of rowsOf(body)) {
    for (const field of ['start_time', 'end_time']) {
      const at = instantOf(String(row[field]));
      if (at < start && second(at) === second(start)) row[field] = body.experiment_start_time;
      if (at > end && second(at) === second(end)) row[field] = body.experiment_end_time;
    }
  }
}

const CONSTANT_DATASET = '00000000-0000-4000-8000-00000000c0de';

export const EXPERIMENT_UPLOAD_PROXY_MUTANTS: readonly ProxyMutant[] = [
  {
    id: 'eu.top-level-fields-defaulted',
    what: 'An upload lacking experiment_name, its window or results is accepted with defaults filled in.',
    breaks: 'Spec 2.8: An upload lacking experiment_name, experiment_start_time, experiment_end_time or results is refused with a 4xx status.',
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-REQ-002'] },
    rules: () => onUploads(fillTopLevel),
  },
  {
    id: 'eu.row-fields-defaulted',
    what: 'A row lacking row_id, inputs, start_time or end_time is accepted with defaults filled in.',
    breaks: 'Spec 2.8: An upload with a row lacking row_id, inputs, start_time or end_time is refused with a 4xx status.',
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-REQ-003'] },
    rules: () => onUploads(fillRows),
  },
  {
    id: 'eu.feedback-fields-defaulted',
    what: 'A feedback lacking key, feedback_source.type or a category value is accepted with defaults filled in.',
    breaks:
      'Spec 2.8: An upload with feedback lacking key, with a feedback_source lacking type, or with a feedback_config category lacking value is refused with a 4xx status.',
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-REQ-004'] },
    rules: () => onUploads(fillFeedback),
  },
  {
    id: 'eu.missing-key-accepted',
    what: 'An upload without an x-api-key header is served as if it carried a valid key.',
    breaks: 'Spec 5: An upload without an x-api-key header, or with a key that is not valid, is refused with a 4xx status.',
    family: 'keys and tenants',
    fails: { mode: 'hosted', requirements: ['EU-AUTH-001'] },
    rules: (keys) => missingKeyServed(keys, 'x-api-key'),
  },
  {
    id: 'eu.any-key-accepted',
    what: 'An upload with an x-api-key that is not a valid key is served as if the key were valid.',
    breaks: 'Spec 5: An upload without an x-api-key header, or with a key that is not valid, is refused with a 4xx status.',
    family: 'keys and tenants',
    fails: { mode: 'hosted', requirements: ['EU-AUTH-001'] },
    rules: (keys) => anyKeyServed(keys, 'x-api-key'),
  },
  {
    id: 'eu.window-edges-refused',
    what: 'Rows must lie strictly inside the experiment window: a row exactly on its start or end is refused.',
    breaks:
      'Spec 2.8: A well-formed upload (required fields present, any combination of optional fields and feedback shapes of 2.8, rows inside the window) is accepted with a 2xx status.',
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-REQ-001', 'EU-TW-001', 'EU-TW-003'] },
    rules: () => ({
      request: (r): ProxiedRequest | ProxiedAnswer => {
        if (!isUpload(r)) return r;
        const { start, end, times } = windowOf(sentBody(r));
        return times.some((t) => t === start || t === end) ? REFUSED_ON_EDGE : r;
      },
    }),
  },
  {
    id: 'eu.window-in-whole-seconds',
    what: 'The window check compares datetimes cut to whole seconds, so a row a few milliseconds outside the window is accepted.',
    breaks:
      'Spec 4.3: An upload with a row whose start_time or end_time lies outside the experiment window, even by one millisecond, is refused with a 4xx status.',
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-TW-002', 'EU-TW-003'] },
    rules: () => onUploads(secondsWindow),
  },
  {
    id: 'eu.window-not-answered',
    what: "The experiment in the upload's answer carries the time of the upload as its end_time, not the window's end.",
    breaks:
      "Spec 2.8: The experiment in the response carries the uploaded experiment_name, its experiment_description and the window's start and end instants, and the dataset carries the uploaded dataset_name when one was given and, when the upload made it, the uploaded dataset_description.",
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-RESP-003'] },
    rules: () => onUploadAnswers((json) => void ((json.experiment as Json).end_time = new Date().toISOString())),
  },
  {
    id: 'eu.experiment-renamed',
    what: "The experiment in the upload's answer carries a name other than the experiment_name uploaded.",
    breaks:
      "Spec 2.8: The experiment in the response carries the uploaded experiment_name, its experiment_description and the window's start and end instants, and the dataset carries the uploaded dataset_name when one was given and, when the upload made it, the uploaded dataset_description.",
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-RESP-003'] },
    rules: () => onUploadAnswers((json) => void ((json.experiment as Json).name = `${String((json.experiment as Json).name)}-renamed`)),
  },
  {
    id: 'eu.dataset-not-externally-managed',
    what: "The dataset in the upload's answer says externally_managed: false.",
    breaks: 'Spec 2.8: The dataset in the response is externally managed (externally_managed is true).',
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-RESP-002'] },
    rules: () => onUploadAnswers((json) => void ((json.dataset as Json).externally_managed = false)),
  },
  {
    id: 'eu.generated-name-missing',
    what: 'A dataset named by dataset_id alone gets an empty name instead of a generated one.',
    breaks: 'Spec 4.3: An upload giving only a dataset_id unknown to the platform is accepted and its dataset gets a generated name.',
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-DS-002'] },
    rules: () => onUploadAnswers((json, sent) => void (sent.dataset_name === undefined && ((json.dataset as Json).name = ''))),
  },
  {
    id: 'eu.dataset-name-not-kept',
    what: 'The dataset gets a name other than the dataset_name uploaded.',
    breaks: 'Spec 4.3: An upload giving only a dataset_name is accepted and its dataset, named so, gets a generated id.',
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-DS-003', 'EU-RESP-003'] },
    rules: () =>
      onUploadAnswers((json, sent) => void (sent.dataset_name !== undefined && ((json.dataset as Json).name = `${String(sent.dataset_name)}-renamed`))),
  },
  {
    id: 'eu.one-dataset-for-all',
    what: 'Every upload lands in one and the same dataset, whatever dataset it names.',
    breaks: 'Spec 4.3: Uploads naming different datasets land in different datasets.',
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-DS-005'] },
    rules: () => onUploadAnswers((json) => void ((json.dataset as Json).id = CONSTANT_DATASET)),
  },
  {
    id: 'eu.name-grouping-ignored',
    what: 'Uploads naming their dataset by dataset_name alone get a new dataset each time (grouping only by dataset_id).',
    breaks: 'Spec 4.3: Uploads repeating the same dataset_id, the same dataset_name, or the same pair of both, group their experiments under one dataset.',
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-DS-004'] },
    rules: () => onUploadAnswers((json, sent) => void (sent.dataset_id === undefined && ((json.dataset as Json).id = randomUUID()))),
  },
  {
    id: 'eu.latency-not-from-rows',
    what: "Latency percentiles are not the rows' durations (three times them).",
    breaks: 'Spec 4.3: Run latency is computed from the row start and end times.',
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-STAT-004'] },
    rules: () =>
      onFilledStatistics((e) => {
        for (const f of ['latency_p50', 'latency_p99']) if (typeof e[f] === 'number') e[f] = (e[f] as number) * 3;
      }),
  },
  {
    id: 'eu.run-count-off-by-one',
    what: 'The filled run_count counts one run more than the rows uploaded.',
    breaks:
      "Spec 2.8: The experiment's statistics are filled in after the upload, within the profile's statistics timeout, with a run count equal to the number of rows.",
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-STAT-002'] },
    rules: () => onFilledStatistics((e) => void (e.run_count = (e.run_count as number) + 1)),
  },
  {
    id: 'eu.tokens-zero-after-statistics',
    what: 'Once the statistics are filled, the token and cost fields read 0 instead of null.',
    breaks: "Spec 2.8: The experiment's token and cost fields stay null after the statistics are filled.",
    family: 'experiments',
    fails: { mode: 'hosted', requirements: ['EU-STAT-005'] },
    rules: () =>
      onFilledStatistics((e) => {
        for (const f of ['total_tokens', 'prompt_tokens', 'completion_tokens', 'total_cost', 'prompt_cost', 'completion_cost']) e[f] = 0;
      }),
  },
];
