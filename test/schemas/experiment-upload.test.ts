// Experiment upload schemas (spec 2.8, 4.3; FIELD-NOTES for naive datetimes and the response).
import { describe, expect, it } from 'vitest';
import { expectIssue, expectValid, withField } from './expect-validation.ts';

// The documentation's example, as FIELD-NOTES describe it: timezone-naive datetimes. Untyped:
// it carries a field the schema does not name (feedback_source.metadata), which must pass.
const upload = {
  experiment_name: 'offline-eval-2024-08-03',
  experiment_description: 'Nightly evaluation run outside the platform',
  dataset_name: 'support-questions',
  dataset_description: 'Questions from the support queue',
  experiment_start_time: '2024-08-03T00:12:39',
  experiment_end_time: '2024-08-03T00:15:01',
  experiment_metadata: { model: 'small', commit: 'abc123' },
  summary_experiment_scores: [
    { key: 'overall_accuracy', score: 0.9, comment: 'two of twenty wrong', feedback_source: { type: 'api' } },
  ],
  results: [
    {
      row_id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
      inputs: { question: 'How do I reset my password?' },
      expected_outputs: { answer: 'Use the reset link.' },
      actual_outputs: { answer: 'Click "forgot password".' },
      evaluation_scores: [
        {
          key: 'correctness',
          score: 1,
          value: 'correct',
          feedback_source: { type: 'model', metadata: { judge: 'large' } },
          feedback_config: { type: 'categorical', min: 0, max: 1, categories: [{ value: 0, label: 'wrong' }, { value: 1 }] },
          created_at: '2024-08-03T00:13:00Z',
          modified_at: '2024-08-03T00:13:00.5+02:00',
          correction: { answer: 'Use the reset link.' },
        },
        { key: 'tone', correction: 'friendlier' },
      ],
      start_time: '2024-08-03T00:12:40',
      end_time: '2024-08-03T00:12:45.250',
      run_name: 'support-agent',
      error: 'partial timeout',
      run_metadata: { attempt: 1 },
    },
  ],
};

describe('ExperimentUploadRequest', () => {
  it('accepts the documented example with timezone-naive datetimes', () => expectValid('ExperimentUploadRequest', upload));

  it('accepts a minimal body and datetimes with offsets', () => {
    expectValid('ExperimentUploadRequest', {
      experiment_name: 'e',
      dataset_id: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
      experiment_start_time: '2024-08-03T00:00:00+00:00',
      experiment_end_time: '2024-08-03T01:00:00Z',
      results: [],
    });
  });

  it.each(['experiment_name', 'experiment_start_time', 'experiment_end_time', 'results'])('requires %s', (field) => {
    expectIssue('ExperimentUploadRequest', withField(upload, [field], undefined), [field], 'missing');
  });

  it.each(['row_id', 'inputs', 'start_time', 'end_time'])('requires results[].%s', (field) => {
    expectIssue('ExperimentUploadRequest', withField(upload, ['results', 0, field], undefined), ['results', 0, field], 'missing');
  });

  it('refuses bad ids, datetimes and types', () => {
    expectIssue('ExperimentUploadRequest', { ...upload, dataset_id: 'support-questions' }, ['dataset_id'], 'uuid_parsing');
    expectIssue('ExperimentUploadRequest', withField(upload, ['results', 0, 'row_id'], 'row-1'), ['results', 0, 'row_id'], 'uuid_parsing');
    expectIssue('ExperimentUploadRequest', { ...upload, experiment_start_time: '2024-13-01T00:00:00' }, ['experiment_start_time'], 'datetime_parsing');
    expectIssue('ExperimentUploadRequest', { ...upload, experiment_end_time: '2024-02-30T00:00:00' }, ['experiment_end_time'], 'datetime_parsing');
    expectIssue('ExperimentUploadRequest', withField(upload, ['results', 0, 'start_time'], 'yesterday'), ['results', 0, 'start_time'], 'datetime_parsing');
    expectIssue('ExperimentUploadRequest', { ...upload, results: {} }, ['results'], 'list_type');
    expectIssue('ExperimentUploadRequest', withField(upload, ['results', 0, 'inputs'], 'question'), ['results', 0, 'inputs'], 'dict_type');
    expectIssue('ExperimentUploadRequest', { ...upload, experiment_metadata: [] }, ['experiment_metadata'], 'dict_type');
  });

  it('checks feedback fields', () => {
    const feedback = ['results', 0, 'evaluation_scores', 0];
    expectIssue('ExperimentUploadRequest', withField(upload, [...feedback, 'key'], undefined), [...feedback, 'key'], 'missing');
    expectIssue('ExperimentUploadRequest', withField(upload, [...feedback, 'score'], 'high'), [...feedback, 'score'], 'float_type');
    expectIssue('ExperimentUploadRequest', withField(upload, [...feedback, 'feedback_source'], {}), [...feedback, 'feedback_source', 'type'], 'missing');
    expectIssue('ExperimentUploadRequest', withField(upload, [...feedback, 'feedback_config', 'type'], 'binary'), [...feedback, 'feedback_config', 'type'], 'enum');
    expectIssue('ExperimentUploadRequest', withField(upload, [...feedback, 'feedback_config', 'categories', 1], { label: 'x' }), [...feedback, 'feedback_config', 'categories', 1, 'value'], 'missing');
    expectIssue('ExperimentUploadRequest', withField(upload, [...feedback, 'created_at'], 'now'), [...feedback, 'created_at'], 'datetime_parsing');
    const issues = expectIssue('ExperimentUploadRequest', withField(upload, [...feedback, 'correction'], 3), [...feedback, 'correction'], 'dict_type');
    expect(issues).toEqual([{ loc: [...feedback, 'correction'], msg: 'Input should be a valid dictionary or a valid string', type: 'dict_type' }]);
    expectIssue('ExperimentUploadRequest', withField(upload, ['summary_experiment_scores', 0, 'key'], 1), ['summary_experiment_scores', 0, 'key'], 'string_type');
  });
});

const DATASET_ID = '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d';
const TENANT_ID = 'a3c9e2f1-7b4d-4f6a-8e25-1c0d9b8a7f64';

// Right after upload: statistics null, as the spec and FIELD-NOTES describe.
const response = {
  dataset: {
    name: 'support-questions',
    description: 'Questions from the support queue',
    created_at: '2024-08-03T00:16:02.123456+00:00',
    data_type: 'kv',
    inputs_schema_definition: null,
    outputs_schema_definition: null,
    externally_managed: true,
    id: DATASET_ID,
    tenant_id: TENANT_ID,
    example_count: 1,
    session_count: 1,
    modified_at: '2024-08-03T00:16:02.123456+00:00',
    last_session_start_time: '2024-08-03T00:12:39',
  },
  experiment: {
    start_time: '2024-08-03T00:12:39',
    end_time: '2024-08-03T00:15:01',
    extra: { metadata: { model: 'small' } },
    name: 'offline-eval-2024-08-03',
    description: 'Nightly evaluation run outside the platform',
    default_dataset_id: null,
    reference_dataset_id: DATASET_ID,
    trace_tier: 'longlived',
    id: '7c6d5e4f-3a2b-4c1d-8e9f-0a1b2c3d4e5f',
    run_count: null,
    latency_p50: null,
    latency_p99: null,
    first_token_p50: null,
    first_token_p99: null,
    total_tokens: null,
    prompt_tokens: null,
    completion_tokens: null,
    total_cost: null,
    prompt_cost: null,
    completion_cost: null,
    tenant_id: TENANT_ID,
    last_run_start_time: null,
    last_run_start_time_live: null,
    feedback_stats: null,
    session_feedback_stats: null,
    run_facets: null,
    error_rate: null,
    streaming_rate: null,
    test_run_number: 1,
  },
};

describe('ExperimentUploadResponse', () => {
  it('accepts the response right after upload (statistics null)', () => expectValid('ExperimentUploadResponse', response));

  it('accepts filled statistics, decimal-string costs and extra fields', () => {
    expectValid('ExperimentUploadResponse', {
      ...response,
      experiment: {
        ...response.experiment,
        run_count: 1,
        latency_p50: 5.25,
        latency_p99: 5.25,
        total_cost: '0.00012',
        last_run_start_time: '2024-08-03T00:12:40+00:00',
        feedback_stats: { correctness: { n: 1, avg: 1 } },
        session_feedback_stats: {},
        run_facets: [],
        error_rate: 0,
        streaming_rate: 0,
        dataset_version: 'latest',
      },
      upload_id: 'u-1',
    });
  });

  it('requires dataset and experiment and every field the spec lists', () => {
    expectIssue('ExperimentUploadResponse', { dataset: response.dataset }, ['experiment'], 'missing');
    expectIssue('ExperimentUploadResponse', { experiment: response.experiment }, ['dataset'], 'missing');
    for (const field of Object.keys(response.dataset)) {
      expectIssue('ExperimentUploadResponse', withField(response, ['dataset', field], undefined), ['dataset', field], 'missing');
    }
    for (const field of Object.keys(response.experiment)) {
      expectIssue('ExperimentUploadResponse', withField(response, ['experiment', field], undefined), ['experiment', field], 'missing');
    }
  });

  it('refuses wrong types', () => {
    expectIssue('ExperimentUploadResponse', withField(response, ['dataset', 'externally_managed'], 'true'), ['dataset', 'externally_managed'], 'bool_type');
    expectIssue('ExperimentUploadResponse', withField(response, ['dataset', 'id'], 'ds-1'), ['dataset', 'id'], 'uuid_parsing');
    expectIssue('ExperimentUploadResponse', withField(response, ['experiment', 'run_count'], 1.5), ['experiment', 'run_count'], 'int_type');
    expectIssue('ExperimentUploadResponse', withField(response, ['experiment', 'latency_p50'], '5s'), ['experiment', 'latency_p50'], 'float_type');
    expectIssue('ExperimentUploadResponse', withField(response, ['experiment', 'start_time'], null), ['experiment', 'start_time'], 'string_type');
  });
});
