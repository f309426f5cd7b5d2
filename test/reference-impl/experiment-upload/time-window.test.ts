// Rule 4: every row's start_time and end_time lie within [experiment_start_time,
// experiment_end_time], edges included, compared as instants (naive datetimes are UTC).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { row, upload } from './bodies.ts';
import { BACKENDS, startOn, type ExperimentUploadServer } from './experiment-upload-server.ts';

const UPLOAD = '/api/v1/datasets/upload-experiment';

describe.each(BACKENDS)('time window (%s store)', (backend) => {
  let server: ExperimentUploadServer;
  beforeAll(async () => {
    server = await startOn(backend);
  });
  afterAll(async () => server.close());

  const withWindow = (start: string, end: string, rows: [string, string][]) =>
    upload({ experiment_start_time: start, experiment_end_time: end, results: rows.map(([s, e]) => row({ start_time: s, end_time: e })) });
  const status = async (body: unknown) => (await server.request('POST', UPLOAD, body)).status;

  it('accepts rows exactly on the edges, zoned and naive', async () => {
    expect(await status(withWindow('2024-08-03T00:00:00Z', '2024-08-03T01:00:00Z', [['2024-08-03T00:00:00Z', '2024-08-03T01:00:00Z']]))).toBe(200);
    expect(await status(withWindow('2024-08-03T00:00:00', '2024-08-03T01:00:00', [['2024-08-03T00:00:00', '2024-08-03T01:00:00']]))).toBe(200);
    expect(await status(withWindow('2024-08-03T00:00:00.123', '2024-08-03T00:00:00.456', [['2024-08-03T00:00:00.123000', '2024-08-03T00:00:00.456Z']]))).toBe(200);
    // The same instants written in other offsets.
    expect(await status(withWindow('2024-08-03T02:00:00+02:00', '2024-08-02T20:00:00-05:00', [['2024-08-03T00:00:00Z', '2024-08-03T01:00:00+00:00']]))).toBe(200);
    // A row with zero duration on the start edge of a zero-length window.
    expect(await status(withWindow('2024-08-03T00:00:00Z', '2024-08-03T00:00:00Z', [['2024-08-03T00:00:00Z', '2024-08-03T00:00:00Z']]))).toBe(200);
  });

  it('refuses a row 1 ms outside either edge with a 422 naming the row', async () => {
    const cases: [[string, string], number, string][] = [
      [['2024-08-02T23:59:59.999Z', '2024-08-03T00:30:00Z'], 1, 'start_time'],
      [['2024-08-03T00:30:00Z', '2024-08-03T01:00:00.001Z'], 1, 'end_time'],
      [['2024-08-03T00:59:59.999', '2024-08-03T01:00:00.001'], 1, 'end_time'],
      [['2024-08-03T01:59:59.999+02:00', '2024-08-03T00:30:00Z'], 1, 'start_time'],
    ];
    for (const [times, index, field] of cases) {
      const body = withWindow('2024-08-03T00:00:00Z', '2024-08-03T01:00:00Z', [['2024-08-03T00:10:00Z', '2024-08-03T00:20:00Z'], times]);
      const reply = await server.request('POST', UPLOAD, body);
      expect(reply.status, JSON.stringify(times)).toBe(422);
      expect(reply.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'results', index, field] }));
      expect(reply.body.detail[0].msg).toMatch(/outside the experiment window/);
    }
  });

  it('reads naive datetimes as UTC', async () => {
    // Naive 00:00 is 00:00Z, so a +01:00 row at 00:30 local (23:30Z the day before) is outside.
    expect(await status(withWindow('2024-08-03T00:00:00', '2024-08-03T01:00:00', [['2024-08-03T00:30:00+01:00', '2024-08-03T00:40:00']]))).toBe(422);
    expect(await status(withWindow('2024-08-03T00:00:00', '2024-08-03T01:00:00', [['2024-08-03T01:30:00+01:00', '2024-08-03T00:40:00']]))).toBe(200);
  });

  it('compares at microsecond precision', async () => {
    expect(await status(withWindow('2024-08-03T00:00:00.000001Z', '2024-08-03T00:00:01Z', [['2024-08-03T00:00:00.000001Z', '2024-08-03T00:00:01Z']]))).toBe(200);
    expect(await status(withWindow('2024-08-03T00:00:00.000001Z', '2024-08-03T00:00:01Z', [['2024-08-03T00:00:00Z', '2024-08-03T00:00:01Z']]))).toBe(422);
  });

  it('refuses datetimes that are not datetimes', async () => {
    for (const bad of ['yesterday', '2024-02-30T00:00:00Z', '2024-08-03T25:00:00Z', '2024-08-03T00:00:00.1234567Z', '']) {
      const reply = await server.request('POST', UPLOAD, upload({ results: [row({ start_time: bad })] }));
      expect(reply.status, bad).toBe(422);
      expect(reply.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'results', 0, 'start_time'] }));
    }
  });
});
