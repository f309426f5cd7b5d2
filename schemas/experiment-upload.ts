// Experiment upload types (spec 2.8, 4.3). Datetimes use the loader's date-time format, which also
// takes timezone-naive values (read as UTC). Rules across fields (dataset id or name, rows inside
// the experiment window) are the implementation's to check, not the schema's. Optional request
// fields also take null, as the platform's request models do (Optional[...] = None).
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, FreeObject, named, Nullable, OptionalNullable, refTo, StringEnum, Uuid } from './json-types.ts';

export const FeedbackSource = Type.Object(
  { type: Type.String({ description: 'Seen: api, app, model, auto_eval.' }) },
  named('FeedbackSource'),
);
export type FeedbackSource = Static<typeof FeedbackSource>;

export const FeedbackCategory = Type.Object({ value: Type.Number(), label: OptionalNullable(Type.String()) }, named('FeedbackCategory'));
export type FeedbackCategory = Static<typeof FeedbackCategory>;

export const FeedbackConfig = Type.Object(
  {
    type: OptionalNullable(StringEnum(['continuous', 'categorical', 'freeform'])),
    min: OptionalNullable(Type.Number()),
    max: OptionalNullable(Type.Number()),
    categories: OptionalNullable(Type.Array(refTo(FeedbackCategory))),
  },
  named('FeedbackConfig'),
);
export type FeedbackConfig = Static<typeof FeedbackConfig>;

export const Feedback = Type.Object(
  {
    key: Type.String(),
    score: OptionalNullable(Type.Number()),
    value: OptionalNullable(Type.String()),
    comment: OptionalNullable(Type.String()),
    feedback_source: OptionalNullable(refTo(FeedbackSource)),
    feedback_config: OptionalNullable(refTo(FeedbackConfig)),
    created_at: OptionalNullable(DateTime({ description: 'Default: now.' })),
    modified_at: OptionalNullable(DateTime({ description: 'Default: now.' })),
    correction: OptionalNullable(Type.Union([FreeObject(), Type.String()])),
  },
  named('Feedback'),
);
export type Feedback = Static<typeof Feedback>;

export const Row = Type.Object(
  {
    row_id: Uuid(),
    inputs: FreeObject({ description: 'Input of both the run and the dataset example.' }),
    expected_outputs: OptionalNullable(FreeObject({ description: 'Outputs of the dataset example.' })),
    actual_outputs: OptionalNullable(FreeObject({ description: 'Outputs of the run.' })),
    evaluation_scores: OptionalNullable(Type.Array(refTo(Feedback))),
    start_time: DateTime(),
    end_time: DateTime(),
    run_name: OptionalNullable(Type.String()),
    error: OptionalNullable(Type.String()),
    run_metadata: OptionalNullable(FreeObject()),
  },
  named('Row', 'One dataset example with its run.'),
);
export type Row = Static<typeof Row>;

export const ExperimentUploadRequest = Type.Object(
  {
    experiment_name: Type.String(),
    experiment_description: OptionalNullable(Type.String()),
    experiment_start_time: DateTime(),
    experiment_end_time: DateTime(),
    dataset_id: OptionalNullable(Uuid({ description: 'External dataset id. dataset_id or dataset_name must be given.' })),
    dataset_name: OptionalNullable(Type.String()),
    dataset_description: OptionalNullable(Type.String()),
    experiment_metadata: OptionalNullable(FreeObject()),
    summary_experiment_scores: OptionalNullable(Type.Array(refTo(Feedback))),
    results: Type.Array(refTo(Row)),
  },
  named('ExperimentUploadRequest'),
);
export type ExperimentUploadRequest = Static<typeof ExperimentUploadRequest>;

// Response. Every field the spec lists is required; statistics are null until the runs are
// persisted, and token and cost fields stay null, so those are nullable. Fields the spec names
// without a meaning (tenant_id, extra, feedback_stats, run_facets, the schema definitions,
// test_run_number) take any value: a conforming platform is never failed on a guessed type.
const count = () => Nullable(Type.Integer({ minimum: 0 }));
const rate = () => Nullable(Type.Number());
/** Costs may come as decimal strings from platforms that serialize decimals as text. */
const cost = () => Type.Union([Type.Number(), Type.String(), Type.Null()]);

export const UploadedDataset = Type.Object(
  {
    name: Type.String(),
    description: Nullable(Type.String()),
    created_at: DateTime(),
    data_type: Nullable(Type.String({ description: 'Seen: kv.' })),
    inputs_schema_definition: Type.Unknown(),
    outputs_schema_definition: Type.Unknown(),
    externally_managed: Type.Boolean({ description: 'True for datasets created by upload.' }),
    id: Uuid(),
    tenant_id: Type.Unknown(),
    example_count: count(),
    session_count: count(),
    modified_at: Nullable(DateTime()),
    last_session_start_time: Nullable(DateTime()),
  },
  named('UploadedDataset'),
);
export type UploadedDataset = Static<typeof UploadedDataset>;

export const UploadedExperiment = Type.Object(
  {
    start_time: DateTime(),
    end_time: Nullable(DateTime()),
    extra: Type.Unknown(),
    name: Type.String(),
    description: Nullable(Type.String()),
    default_dataset_id: Nullable(Uuid()),
    reference_dataset_id: Nullable(Uuid()),
    trace_tier: Nullable(Type.String({ description: 'Seen: longlived.' })),
    id: Uuid(),
    run_count: count(),
    latency_p50: rate(),
    latency_p99: rate(),
    first_token_p50: rate(),
    first_token_p99: rate(),
    total_tokens: count(),
    prompt_tokens: count(),
    completion_tokens: count(),
    total_cost: cost(),
    prompt_cost: cost(),
    completion_cost: cost(),
    tenant_id: Type.Unknown(),
    last_run_start_time: Nullable(DateTime()),
    last_run_start_time_live: Nullable(DateTime()),
    feedback_stats: Type.Unknown(),
    session_feedback_stats: Type.Unknown(),
    run_facets: Type.Unknown(),
    error_rate: rate(),
    streaming_rate: rate(),
    test_run_number: Type.Unknown(),
  },
  named('UploadedExperiment'),
);
export type UploadedExperiment = Static<typeof UploadedExperiment>;

export const ExperimentUploadResponse = Type.Object(
  { dataset: refTo(UploadedDataset), experiment: refTo(UploadedExperiment) },
  named('ExperimentUploadResponse'),
);
export type ExperimentUploadResponse = Static<typeof ExperimentUploadResponse>;

export const experimentUploadSchemas = {
  ExperimentUploadRequest,
  Row,
  Feedback,
  FeedbackSource,
  FeedbackConfig,
  FeedbackCategory,
  ExperimentUploadResponse,
  UploadedDataset,
  UploadedExperiment,
};
