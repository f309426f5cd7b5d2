// Request bodies of the benchmarks, as JSON text with `[<id>]` where a name must be unique.

export const DEPLOYMENT = JSON.stringify({
  name: 'bench-[<id>]',
  source: 'internal_container',
  source_config: {},
  source_revision_config: { image_uri: 'registry.example.com/agent:1' },
  secrets: [],
});

export const ASSISTANT = JSON.stringify({ graph_id: 'echo', name: 'bench-[<id>]', metadata: { bench: true } });

function row(i: number): Record<string, unknown> {
  const minute = String(10 + (i % 40)).padStart(2, '0');
  return {
    row_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    inputs: { question: `What is ${i} + ${i}?` },
    expected_outputs: { answer: String(2 * i) },
    actual_outputs: { answer: String(2 * i) },
    evaluation_scores: [{ key: 'correctness', score: 1, comment: 'exact match', feedback_source: { type: 'api' } }],
    start_time: `2024-08-03T00:${minute}:00Z`,
    end_time: `2024-08-03T00:${minute}:02Z`,
    run_name: 'qa-run',
    run_metadata: { model: 'm1' },
  };
}

/** An experiment upload with `rows` result rows, its experiment and dataset named uniquely. */
export function upload(rows: number): string {
  return JSON.stringify({
    experiment_name: 'bench-exp-[<id>]',
    experiment_start_time: '2024-08-03T00:00:00Z',
    experiment_end_time: '2024-08-03T01:00:00Z',
    dataset_name: 'bench-ds-[<id>]',
    summary_experiment_scores: [{ key: 'overall', score: 0.9 }],
    results: Array.from({ length: rows }, (_, i) => row(i)),
  });
}

export const STREAM_RUN = JSON.stringify({ assistant_id: 'echo', input: { messages: [{ role: 'user', content: 'bench' }] }, stream_mode: ['updates', 'messages'] });
