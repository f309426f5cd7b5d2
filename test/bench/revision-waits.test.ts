// The waits section's slope: the phase settings certified in interleaved rounds, and the line
// fitted through each setting's median, so one run slowed by a spell of load does not move it.
import { expect, test } from 'vitest';
import { fitLine, median, waitSeries } from '../../bench/revision-waits.ts';

test('the line through points on a line is that line', () => {
  expect(fitLine([0.12, 1.5, 6].map((x) => ({ revisionSeconds: x, wallSeconds: 6 + 1.5 * x })))).toEqual({ slope: 1.5, intercept: 6 });
  expect(median([3, 1, 2])).toBe(2);
  expect(median([4, 1, 3, 2])).toBe(2.5);
});

test('settings run in interleaved rounds, and the fit goes through the medians: one slow run moves nothing', async () => {
  const order: number[] = [];
  let calls = 0;
  const series = await waitSeries([20, 250, 1000], 3, async (phaseMs) => {
    order.push(phaseMs);
    calls += 1;
    // Wall time 6 s + 1.5 × the revision time, but the fifth run (250 ms, second round) hit a spell of load.
    const wallSeconds = 6 + 1.5 * ((phaseMs * 6) / 1000) + (calls === 5 ? 30 : 0);
    return { wallSeconds, verdict: 'certified', load: calls === 5 ? 20 : 2 };
  });
  expect(order).toEqual([20, 250, 1000, 20, 250, 1000, 20, 250, 1000]);
  expect(series.points.map((p) => p.runs.length)).toEqual([3, 3, 3]);
  expect(series.points[1]!.runs.map((r) => r.load)).toEqual([2, 20, 2]);
  expect(series.points.map((p) => p.wallSeconds)).toEqual([6.18, 8.25, 15]);
  expect(series.slope).toBe(1.5);
  expect(series.intercept).toBe(6);
});
