// Upload bodies for the tests: a valid one with every field, built around a time window.
import { randomUUID } from 'node:crypto';

export const WINDOW_START = '2024-08-03T00:00:00Z';
export const WINDOW_END = '2024-08-03T01:00:00Z';

let counter = 0;
/** A session name no other test uses. */
export const uniqueName = (prefix = 'exp') => `${prefix}-${process.pid}-${++counter}-${randomUUID().slice(0, 8)}`;

export function row(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    row_id: randomUUID(),
    inputs: { question: 'What is 2 + 2?' },
    expected_outputs: { answer: '4' },
    actual_outputs: { answer: '4' },
    evaluation_scores: [{ key: 'correctness', score: 1, comment: 'exact match', feedback_source: { type: 'api' } }],
    start_time: '2024-08-03T00:10:00Z',
    end_time: '2024-08-03T00:10:02Z',
    run_name: 'qa-run',
    run_metadata: { model: 'm1' },
    ...overrides,
  };
}

export function upload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    experiment_name: uniqueName(),
    experiment_description: 'an experiment run elsewhere',
    experiment_start_time: WINDOW_START,
    experiment_end_time: WINDOW_END,
    dataset_name: uniqueName('ds'),
    dataset_description: 'questions',
    experiment_metadata: { commit: 'abc123' },
    summary_experiment_scores: [{ key: 'overall', score: 0.9, feedback_config: { type: 'continuous', min: 0, max: 1 } }],
    results: [row(), row({ start_time: '2024-08-03T00:20:00Z', end_time: '2024-08-03T00:20:04Z' })],
    ...overrides,
  };
}

/** The body without the listed top-level fields. */
export function without(body: Record<string, unknown>, ...fields: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !fields.includes(key)));
}
