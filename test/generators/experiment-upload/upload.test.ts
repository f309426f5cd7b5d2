// Experiment upload generators: datetimes denote the instants meant, in every spelling; window
// cases are what their class says; every feedback shape of 2.8 is generated; a body lacking a
// required field is classified as lacking exactly that field.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatInstant, instant, instantOf, zonedZone, type Zone } from '../../../generators/experiment-upload/datetimes.ts';
import { feedbackCase } from '../../../generators/experiment-upload/feedback.ts';
import { missingRequired, REQUIRED_FIELDS, withoutField } from '../../../generators/experiment-upload/required-fields.ts';
import { edgeUpload, outsideUpload, rowsOfDurations, uploadBody, validUpload, windowClass, type UploadCase } from '../../../generators/experiment-upload/upload.ts';

/** Uploads of either spelling, so the window cases hold for naive datetimes too. */
const eitherSpelling = fc.constantFrom('naive', 'zoned');

const ids = { experimentName: 'apc-test-exp', datasetName: 'apc-test-ds', datasetId: '00000000-0000-4000-8000-000000000001', rowIds: ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2'] };

/** Row instants of a body, relative to its window. */
function rowOffsets(c: UploadCase): { start: number; end: number; times: number[] } {
  const body = uploadBody(c, ids);
  const start = instantOf(body.experiment_start_time as string);
  const end = instantOf(body.experiment_end_time as string);
  const rows = body.results as { start_time: string; end_time: string }[];
  return { start, end, times: rows.flatMap((r) => [instantOf(r.start_time), instantOf(r.end_time)]) };
}

describe('datetimes', () => {
  test('every spelling denotes the same instant', () => {
    fc.assert(
      fc.property(instant, fc.oneof(zonedZone, fc.constant<Zone>({ kind: 'naive' })), (ms, zone) => {
        const text = formatInstant(ms, zone);
        expect(instantOf(text)).toBe(ms);
        expect(/(?:Z|[+-]\d{2}:\d{2})$/.test(text)).toBe(zone.kind !== 'naive');
      }),
      { numRuns: 300 },
    );
  });

  test('offsets are written as ±hh:mm', () => {
    expect(formatInstant(Date.UTC(2024, 7, 3, 0, 12, 39, 5), { kind: 'offset', minutes: -210 })).toBe('2024-08-02T20:42:39.005-03:30');
    expect(formatInstant(Date.UTC(2024, 7, 3, 0, 12, 39), { kind: 'offset', minutes: 345 })).toBe('2024-08-03T05:57:39.000+05:45');
    expect(formatInstant(Date.UTC(2024, 7, 3, 0, 12, 39), { kind: 'naive' })).toBe('2024-08-03T00:12:39.000');
  });
});

describe('window cases', () => {
  test('valid uploads keep every row inside the window', () => {
    fc.assert(
      fc.property(eitherSpelling.chain((spelling) => validUpload({ spelling })), (c) => {
        expect(windowClass(c)).not.toBe('outside');
        const { start, end, times } = rowOffsets(c);
        expect(times.every((t) => t >= start && t <= end)).toBe(true);
      }),
    );
  });

  test('edge uploads put rows exactly on the window edges', () => {
    fc.assert(
      fc.property(eitherSpelling.chain((spelling) => edgeUpload({ spelling })), (c) => {
        expect(windowClass(c)).toBe('edge');
        const { start, end, times } = rowOffsets(c);
        expect(times).toContain(start);
        expect(times).toContain(end);
      }),
    );
  });

  test('outside uploads by 1 ms put one time exactly 1 ms outside', () => {
    fc.assert(
      fc.property(eitherSpelling.chain((spelling) => outsideUpload(1, { spelling })), (c) => {
        expect(windowClass(c)).toBe('outside');
        const { start, end, times } = rowOffsets(c);
        expect(times.includes(start - 1) || times.includes(end + 1)).toBe(true);
      }),
    );
  });

  test('one upload never mixes naive and zoned datetimes', () => {
    fc.assert(
      fc.property(eitherSpelling.chain((spelling) => validUpload({ spelling })), (c) => {
        const texts = JSON.stringify(uploadBody(c, ids)).match(/"\d{4}-\d{2}-\d{2}T[^"]+"/g) ?? [];
        const zoned = texts.map((t) => /(?:Z|[+-]\d{2}:\d{2})"$/.test(t));
        expect(new Set(zoned).size).toBe(1);
        expect(zoned[0]).toBe(c.spelling.kind === 'zoned');
      }),
    );
  });

  test('a naive window has zoned rows denoting the same instants read as UTC', () => {
    fc.assert(
      fc.property(edgeUpload({ spelling: 'naive-window' }), (c) => {
        const body = uploadBody(c, ids);
        expect(/(?:Z|[+-]\d{2}:\d{2})$/.test(body.experiment_start_time as string)).toBe(false);
        const rows = body.results as { start_time: string }[];
        expect(rows.every((r) => /(?:Z|[+-]\d{2}:\d{2})$/.test(r.start_time))).toBe(true);
        const { start, end, times } = rowOffsets(c);
        expect(times).toContain(start);
        expect(times).toContain(end);
      }),
    );
  });

  test('uploads are zoned unless another spelling is asked for (naive datetimes rest on the field notes)', () => {
    expect(fc.sample(validUpload(), { numRuns: 30, seed: 5 }).every((c) => c.spelling.kind === 'zoned')).toBe(true);
    expect(fc.sample(outsideUpload(), { numRuns: 30, seed: 5 }).every((c) => c.spelling.kind === 'zoned')).toBe(true);
  });

  test('the spelling option keeps every datetime naive or zoned', () => {
    for (const kind of ['naive', 'zoned'] as const) {
      expect(fc.sample(edgeUpload({ spelling: kind }), { numRuns: 30, seed: 5 }).every((c) => c.spelling.kind === kind)).toBe(true);
      expect(fc.sample(outsideUpload(1, { spelling: kind }), { numRuns: 30, seed: 5 }).every((c) => c.spelling.kind === kind)).toBe(true);
    }
  });

  test('rows of given durations follow each other from the window start', () => {
    expect(rowsOfDurations([1500, 1500])).toEqual({ rows: [{ startMs: 0, endMs: 1500, inputs: {} }, { startMs: 1500, endMs: 3000, inputs: {} }], durationMs: 3000 });
  });
});

describe('dataset naming', () => {
  test.each([
    ['id', ['dataset_id']],
    ['name', ['dataset_name']],
    ['both', ['dataset_id', 'dataset_name']],
  ] as const)('naming by %s sends %s', (naming, fields) => {
    const [c] = fc.sample(validUpload({ naming }), { numRuns: 1, seed: 1 });
    const body = uploadBody(c!, ids);
    expect(['dataset_id', 'dataset_name'].filter((f) => f in body)).toEqual(fields);
  });
});

describe('feedback', () => {
  test('every shape of 2.8 is generated', () => {
    const samples = fc.sample(feedbackCase, { numRuns: 400, seed: 3 });
    const configTypes = new Set(samples.map((f) => f.feedback_config?.type).filter(Boolean));
    expect(configTypes).toEqual(new Set(['continuous', 'categorical', 'freeform']));
    expect(samples.some((f) => typeof f.correction === 'string')).toBe(true);
    expect(samples.some((f) => typeof f.correction === 'object')).toBe(true);
    expect(samples.some((f) => Object.keys(f).length === 1)).toBe(true);
    for (const field of ['score', 'value', 'comment', 'feedback_source', 'createdAfterMs', 'modifiedAfterMs'] as const) {
      expect(samples.some((f) => f[field] !== undefined), field).toBe(true);
    }
    expect(samples.every((f) => f.feedback_source === undefined || typeof f.feedback_source.type === 'string')).toBe(true);
  });
});

describe('required fields', () => {
  test('a valid body lacks nothing; without one field it lacks exactly that field', () => {
    fc.assert(
      fc.property(validUpload(), fc.constantFrom(...REQUIRED_FIELDS), fc.nat(), (c, field, pick) => {
        const body = uploadBody(c, ids);
        expect(missingRequired(body)).toEqual([]);
        expect(missingRequired(withoutField(body, field, pick))).toEqual([field]);
      }),
    );
  });
});
