// Stored records as the API returns them (spec 2.8: the `dataset` and `experiment` objects).
import { formatMicros } from './datetime.ts';
import type { FaultCheck } from './faults.ts';
import type { SessionRow } from './records.ts';
import type { DatasetWithCounts } from './store.ts';

export function datasetView({ row, counts }: DatasetWithCounts) {
  return {
    name: row.name,
    description: row.description,
    created_at: row.createdAt,
    data_type: 'kv' as const,
    inputs_schema_definition: null,
    outputs_schema_definition: null,
    externally_managed: row.externallyManaged,
    id: row.id,
    tenant_id: row.tenantId,
    example_count: counts.exampleCount,
    session_count: counts.sessionCount,
    modified_at: row.modifiedAt,
    last_session_start_time: counts.lastSessionStart === null ? null : formatMicros(counts.lastSessionStart),
  };
}

/**
 * A session (experiment or tracing project). Statistics are null until `statsDueAtMs`, as on the
 * real platform while runs are being persisted; token, cost and first-token fields stay null.
 */
export function sessionView(row: SessionRow, nowMs: number, faults: FaultCheck) {
  // FAULT eu.stats-never-filled: statistics stay null forever.
  const filled = nowMs >= row.statsDueAtMs && !faults('eu.stats-never-filled');
  const stat = <K extends keyof SessionRow['stats']>(key: K): SessionRow['stats'][K] | null => (filled ? row.stats[key] : null);
  // FAULT eu.tokens-not-null: token and cost fields report 0 although no token data was sent.
  const usage = faults('eu.tokens-not-null') ? 0 : null;
  return {
    start_time: formatMicros(row.start),
    end_time: row.end === null ? null : formatMicros(row.end),
    extra: row.extra,
    name: row.name,
    description: row.description,
    default_dataset_id: null,
    reference_dataset_id: row.referenceDatasetId,
    trace_tier: 'longlived' as const,
    id: row.id,
    run_count: stat('run_count'),
    latency_p50: stat('latency_p50'),
    latency_p99: stat('latency_p99'),
    first_token_p50: null,
    first_token_p99: null,
    total_tokens: usage,
    prompt_tokens: usage,
    completion_tokens: usage,
    total_cost: usage,
    prompt_cost: usage,
    completion_cost: usage,
    tenant_id: row.tenantId,
    last_run_start_time: stat('last_run_start_time'),
    last_run_start_time_live: stat('last_run_start_time_live'),
    feedback_stats: stat('feedback_stats'),
    session_feedback_stats: stat('session_feedback_stats'),
    run_facets: stat('run_facets'),
    error_rate: stat('error_rate'),
    streaming_rate: stat('streaming_rate'),
    test_run_number: row.testRunNumber,
  };
}
