// The loader's date-time format: RFC 3339 with or without an offset (FIELD-NOTES: naive = UTC).
import { describe, expect, it } from 'vitest';
import { isDateTime } from '../../schemas/datetime-format.ts';
import { validate } from '../../schemas/index.ts';

describe('date-time format', () => {
  it.each([
    '2024-08-03T00:12:39',
    '2024-08-03T00:12:39.123456',
    '2024-08-03T00:12:39Z',
    '2024-08-03t00:12:39z',
    '2024-08-03 00:12:39+00:00',
    '2024-08-03T00:12:39.5-07:30',
    '2024-08-03T00:12:39+0200',
    '2024-08-03T00:12',
    '2024-02-29T23:59:59',
    '2000-02-29T00:00:00',
  ])('accepts %s', (text) => expect(isDateTime(text)).toBe(true));

  it.each([
    '2024-08-03',
    '2024-08-03T24:00:00',
    '2024-08-03T23:60:00',
    '2024-08-03T23:59:60',
    '2023-02-29T00:00:00',
    '1900-02-29T00:00:00',
    '2024-04-31T00:00:00',
    '2024-00-10T00:00:00',
    '2024-08-03T00:12:39+24:00',
    '2024-08-03T00:12:39 UTC',
    '03/08/2024 00:12',
    '',
  ])('refuses %s', (text) => expect(isDateTime(text)).toBe(false));

  it('is what the schemas use for datetime fields', () => {
    const thread = (created_at: string) => ({ thread_id: 'f4b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d', created_at });
    const upload = (experiment_start_time: string) => ({
      experiment_name: 'e',
      experiment_start_time,
      experiment_end_time: '2024-08-03T00:12:39',
      results: [],
    });
    expect(validate('ExperimentUploadRequest', upload('2024-08-03T00:12:39'))).toEqual({ ok: true });
    expect(validate('ExperimentUploadRequest', upload('2024-08-03T25:12:39')).ok).toBe(false);
    expect(validate('Revision', { id: 'f4b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d', status: 'QUEUED', created_at: '2025-01-01T00:00:00' })).toEqual({ ok: true });
    expect(validate('Thread', thread('not a time'))).toEqual({ ok: true }); // Thread shows no created_at: extra fields are free
  });
});
