// Experiment statistics (spec 2.8, 4.3 rule 5): null right after upload, filled a few seconds
// later (read back with GET /api/v1/sessions/{id}, profile endpoint `experiment-reads`), latency
// from the rows' times, token and cost fields always null.
import fc from 'fast-check';
import { rowsOfDurations, validUpload, type UploadCase } from '../../generators/experiment-upload/upload.ts';
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { bodyOf, statsFilled, uploadOk, type JsonObject } from './support/upload.ts';

const STATISTICS = ['run_count', 'latency_p50', 'latency_p99', 'feedback_stats'];
const TOKENS_AND_COSTS = ['total_tokens', 'prompt_tokens', 'completion_tokens', 'total_cost', 'prompt_cost', 'completion_cost'];

const SCORE = [{ key: 'correctness', score: 1 }];

/** An upload whose rows last the given milliseconds each, every row with a score. */
function timedCase(t: Check, durationsMs: number[]): UploadCase {
  const [base] = fc.sample(validUpload({ naming: 'name', spelling: 'zoned' }), { numRuns: 1, seed: t.testSeed });
  const { rows, durationMs } = rowsOfDurations(durationsMs, { question: 'how long?' });
  return { ...base!, durationMs, rows: rows.map((r) => ({ ...r, evaluation_scores: SCORE })) };
}

function nonNull(experiment: JsonObject, fields: string[]): string[] {
  return fields.filter((f) => experiment[f] !== null);
}

requirement('EU-STAT-001', async (t: Check) => {
  await t.property(
    validUpload(),
    async (c) => {
      const { experiment } = await uploadOk(t, bodyOf(t, c));
      const filled = nonNull(experiment, STATISTICS);
      t.expect(filled.length === 0, { message: `Right after upload, ${filled.join(', ')} are not null.`, expected: `${STATISTICS.join(', ')}: null`, seen: Object.fromEntries(STATISTICS.map((f) => [f, experiment[f]])) });
    },
    { numRuns: Math.min(t.profile.runs, 5), sideBySide: true },
  );
}, { cost: (p) => ({ creates: { uploads: Math.min(p.runs, 5) } }) });

requirement(
  'EU-STAT-002',
  async (t: Check) => {
    const c = timedCase(t, [1_000, 2_000, 3_000]);
    const { experiment } = await uploadOk(t, bodyOf(t, c));
    // Every row has a score, so feedback_stats fill too; a statistic that never fills times out.
    const stored = await statsFilled(t, experiment.id as string, 'EU-STAT-002', { rows: c.rows.length, fields: STATISTICS });
    t.expect(stored.run_count === c.rows.length, { message: 'The filled run_count is not the number of rows uploaded.', expected: c.rows.length, seen: stored.run_count });
  },
  { cost: { creates: { uploads: 1 } }, timeout: 'stats' },
);

requirement('EU-STAT-003', async (t: Check) => {
  const c = timedCase(t, [500, 1_500]);
  const { experiment } = await uploadOk(t, bodyOf(t, c));
  const atUpload = nonNull(experiment, TOKENS_AND_COSTS);
  t.expect(atUpload.length === 0, { message: `At upload, ${atUpload.join(', ')} are not null.`, expected: `${TOKENS_AND_COSTS.join(', ')}: null`, seen: Object.fromEntries(TOKENS_AND_COSTS.map((f) => [f, experiment[f]])) });
}, { cost: { creates: { uploads: 1 } } });

// Later reads need the optional read endpoint (the catalogue's `needs`).
requirement(
  'EU-STAT-005',
  async (t: Check) => {
    const c = timedCase(t, [500, 1_500]);
    const { experiment } = await uploadOk(t, bodyOf(t, c));
    const stored = await statsFilled(t, experiment.id as string, 'EU-STAT-002', { rows: c.rows.length, fields: [] });
    const later = nonNull(stored, TOKENS_AND_COSTS);
    t.expect(later.length === 0, { message: `Once the statistics are filled, ${later.join(', ')} are not null.`, expected: `${TOKENS_AND_COSTS.join(', ')}: null`, seen: Object.fromEntries(TOKENS_AND_COSTS.map((f) => [f, stored[f]])) });
  },
  { cost: { creates: { uploads: 1 } }, timeout: 'stats' },
);

/** Latency in seconds, whichever unit the target uses (not shown): seconds or milliseconds. */
function seconds(value: unknown, longestMs: number): number | undefined {
  if (typeof value !== 'number') return undefined;
  return value > (longestMs / 1000) * 10 ? value / 1000 : value;
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));

requirement(
  'EU-STAT-004',
  async (t: Check) => {
    // One duration: every percentile is that duration.
    const uniform = timedCase(t, [1_500, 1_500, 1_500]);
    const spread = timedCase(t, [1_000, 2_000, 4_000]);
    const [a, b] = await Promise.all([uniform, spread].map((c) => uploadOk(t, bodyOf(t, c))));
    const latencies = ['latency_p50', 'latency_p99'];
    const [one, several] = await Promise.all([a!, b!].map((u) => statsFilled(t, u.experiment.id as string, 'EU-STAT-002', { rows: 3, fields: latencies })));
    for (const field of latencies) {
      const value = seconds(one![field], 1_500);
      t.expect(value !== undefined && close(value, 1.5), { message: `Rows lasting 1.5 s each gave ${field} ${String(one![field])}.`, expected: '1.5 (seconds) or 1500 (milliseconds)', seen: one![field] });
    }
    const p50 = seconds(several!.latency_p50, 4_000);
    const p99 = seconds(several!.latency_p99, 4_000);
    t.expect(p50 !== undefined && p99 !== undefined && p50 >= 1 - 1e-6 && p50 <= p99 + 1e-6 && p99 <= 4 + 1e-6, {
      message: 'Rows lasting 1 s, 2 s and 4 s gave latency percentiles outside that range or out of order.',
      expected: '1 <= latency_p50 <= latency_p99 <= 4 (seconds)',
      seen: { latency_p50: several!.latency_p50, latency_p99: several!.latency_p99 },
    });
  },
  { cost: { creates: { uploads: 2 } }, timeout: 'stats' },
);
