// Session statistics from the uploaded runs. Latencies are in seconds (the platform's unit);
// percentiles interpolate linearly between the sorted latencies. Tokens, costs and first-token
// times are not computed: the upload carries no such data (spec 2.8).
import { formatMicros, secondsBetween } from './datetime.ts';
import type { FeedbackRecord, JsonObject, RunRow, SessionStats } from './records.ts';

export function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  const position = (sorted.length - 1) * fraction;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower]!;
  return low + (sorted[upper]! - low) * (position - lower);
}

/**
 * Per feedback key: count, mean and population standard deviation of scores, counts of values.
 * Maps, not object keys, collect them: a key or value may be any string, "__proto__" included.
 */
export function feedbackStats(feedback: readonly FeedbackRecord[]): JsonObject {
  const byKey = new Map<string, FeedbackRecord[]>();
  for (const entry of feedback) {
    const entries = byKey.get(entry.key);
    if (entries) entries.push(entry);
    else byKey.set(entry.key, [entry]);
  }
  return Object.fromEntries(
    [...byKey].map(([key, entries]) => {
      const scores = entries.flatMap((e) => (e.score === null ? [] : [e.score]));
      const avg = scores.length === 0 ? null : scores.reduce((a, b) => a + b, 0) / scores.length;
      const stdev = avg === null ? null : Math.sqrt(scores.reduce((a, s) => a + (s - avg) ** 2, 0) / scores.length);
      const values = new Map<string, number>();
      for (const e of entries) if (e.value !== null) values.set(e.value, (values.get(e.value) ?? 0) + 1);
      return [key, { n: entries.length, avg, stdev, errors: 0, values: Object.fromEntries(values) }];
    }),
  );
}

export function sessionStats(runs: readonly RunRow[], sessionFeedback: readonly FeedbackRecord[]): SessionStats {
  const latencies = runs.map((r) => secondsBetween(r.start, r.end)).sort((a, b) => a - b);
  const lastStart = runs.reduce<bigint | null>((max, r) => (max === null || r.start > max ? r.start : max), null);
  const lastRunStart = lastStart === null ? null : formatMicros(lastStart);
  return {
    run_count: runs.length,
    latency_p50: percentile(latencies, 0.5),
    latency_p99: percentile(latencies, 0.99),
    feedback_stats: feedbackStats(runs.flatMap((r) => r.feedback)),
    session_feedback_stats: feedbackStats(sessionFeedback),
    run_facets: [],
    error_rate: runs.length === 0 ? null : runs.filter((r) => r.error !== null).length / runs.length,
    streaming_rate: runs.length === 0 ? null : 0,
    last_run_start_time: lastRunStart,
    last_run_start_time_live: lastRunStart,
  };
}
