// What The experiment-upload store keeps. Times that are ordered or compared are microseconds since the
// epoch (see datetime.ts); the rest are kept as the strings the API returns.
import type { Micros } from './datetime.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface DatasetRow {
  id: string;
  tenantId: string;
  name: string;
  description: string | null;
  /** True for datasets made by the experiment upload, false for `POST /api/v1/datasets`. */
  externallyManaged: boolean;
  createdAt: string;
  modifiedAt: string;
}

/** Derived from a dataset's examples and experiments when it is read. */
export interface DatasetCounts {
  exampleCount: number;
  sessionCount: number;
  lastSessionStart: Micros | null;
}

/** A feedback entry as stored: the request's fields, with the timestamps defaulted. */
export interface FeedbackRecord {
  key: string;
  score: number | null;
  value: string | null;
  comment: string | null;
  feedback_source: JsonObject | null;
  feedback_config: JsonObject | null;
  created_at: string;
  modified_at: string;
  correction: JsonObject | string | null;
}

/** Statistics of a session, computed at upload and shown once `statsDueAtMs` has passed. */
export interface SessionStats {
  run_count: number;
  latency_p50: number | null;
  latency_p99: number | null;
  feedback_stats: JsonObject;
  session_feedback_stats: JsonObject;
  run_facets: Json[];
  error_rate: number | null;
  streaming_rate: number | null;
  last_run_start_time: string | null;
  last_run_start_time_live: string | null;
}

/**
 * A tracer session: an uploaded experiment (`reference_dataset_id` set) or a tracing project
 * (created with a deployment). Session names are unique per tenant across both kinds.
 */
export interface SessionRow {
  id: string;
  tenantId: string;
  kind: 'experiment' | 'project';
  name: string;
  description: string | null;
  start: Micros;
  end: Micros | null;
  extra: JsonObject | null;
  referenceDatasetId: string | null;
  testRunNumber: number | null;
  sessionFeedback: FeedbackRecord[];
  stats: SessionStats;
  /** Wall-clock time (ms since the epoch) from which the statistics are shown. */
  statsDueAtMs: number;
  createdAt: string;
}

/** One dataset example; a repeated `row_id` in the same dataset updates it. */
export interface ExampleRow {
  id: string;
  datasetId: string;
  inputs: JsonObject;
  outputs: JsonObject | null;
  createdAt: string;
  modifiedAt: string;
}

export interface RunRow {
  id: string;
  sessionId: string;
  exampleId: string;
  name: string | null;
  inputs: JsonObject;
  outputs: JsonObject | null;
  error: string | null;
  start: Micros;
  end: Micros;
  metadata: JsonObject | null;
  feedback: FeedbackRecord[];
}
