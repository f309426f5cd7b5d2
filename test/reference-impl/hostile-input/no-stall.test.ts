// No request stalls the others: while the experiment-upload listener reads and validates 10 MB hostile
// bodies one after another, GET /ok on each of the three listeners keeps answering. Compared as a
// ratio to the same sampling on an idle server in the same run, never against a clock bound.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { referenceOn, LISTENERS, type RunningReference } from './reference-on.ts';

const SAMPLES = 150;

let ref: RunningReference;
beforeAll(async () => {
  ref = await referenceOn('memory');
});
afterAll(() => ref.close());

/** Latencies (ms) of SAMPLES sequential GET /ok requests on each listener at once, all together. */
async function sampleAll(): Promise<number[]> {
  const perListener = await Promise.all(
    LISTENERS.map(async (listener) => {
      const latencies: number[] = [];
      for (let i = 0; i < SAMPLES; i += 1) {
        const started = performance.now();
        const reply = await ref.call(listener, 'GET', '/ok');
        latencies.push(performance.now() - started);
        expect(reply.status).toBeLessThan(500);
      }
      return latencies;
    }),
  );
  return perListener.flat();
}

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)]!;

/** Just under 10 MB: rows whose `inputs` are long strings instead of objects (each a problem). */
function hostileUpload(): string {
  const row = JSON.stringify({ row_id: '00000000-0000-4000-8000-000000000000', inputs: 'x'.repeat(1_000), expected_outputs: {}, actual_outputs: {}, start_time: '2024-01-01T00:00:00Z', end_time: '2024-01-01T00:00:01Z' });
  const rows = Array.from({ length: Math.floor((9.5 * 1024 * 1024) / (row.length + 1)) }, () => row).join(',');
  return `{"experiment_name":"hostile","dataset_name":"hostile","experiment_start_time":"2024-01-01T00:00:00Z","experiment_end_time":"2024-01-01T00:01:00Z","results":[${rows}]}`;
}

it('keeps GET /ok answering on every listener while 10 MB hostile bodies are validated', async () => {
  await sampleAll();
  const idle = p99(await sampleAll());
  const body = hostileUpload();
  let sending = true;
  let hostileAnswers = 0;
  const hostile = (async () => {
    while (sending) {
      const reply = await ref.call('experimentUpload', 'POST', '/api/v1/datasets/upload-experiment', body);
      expect(reply.status, reply.text.slice(0, 200)).toBe(422);
      hostileAnswers += 1;
    }
  })();
  const loaded = p99(await sampleAll());
  sending = false;
  await hostile;
  expect(hostileAnswers).toBeGreaterThan(0);
  console.log(`GET /ok p99: idle ${idle.toFixed(2)} ms, under 10 MB hostile bodies ${loaded.toFixed(2)} ms (${(loaded / idle).toFixed(1)}x), ${hostileAnswers} hostile bodies answered`);
  // Parsing each body in one go (JSON.parse holds the loop some 200 ms per 10 MB) measured 16
  // times the idle p99 on a busy 2-core machine and is over a hundred times on a quiet one; read
  // in slices, the waits stayed within 2 times the idle ones.
  expect(loaded / idle).toBeLessThan(20);
});
