// Datetime reading of the upload: naive is UTC, offsets move the instant, microsecond precision,
// and output as Python prints it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMicros, parseDatetime } from '../../../reference-impl/experiment-upload/datetime.ts';

const micros = (text: string) => {
  const parsed = parseDatetime(text);
  if (!parsed.ok) throw new Error(parsed.msg);
  return parsed.micros;
};

describe('upload datetimes', () => {
  it('reads naive datetimes as UTC and applies offsets', () => {
    expect(micros('2024-08-03T00:12:39')).toBe(micros('2024-08-03T00:12:39Z'));
    expect(micros('2024-08-03T02:12:39+02:00')).toBe(micros('2024-08-03T00:12:39Z'));
    expect(micros('2024-08-02T19:12:39-0500')).toBe(micros('2024-08-03T00:12:39Z'));
    expect(micros('2024-08-03 00:12:39.5')).toBe(micros('2024-08-03T00:12:39.500000Z'));
    expect(micros('2024-08-03T00:12:39.000001Z') - micros('2024-08-03T00:12:39Z')).toBe(1n);
  });

  it('refuses what is not a datetime', () => {
    for (const bad of ['', '2024-08-03', '2024-13-01T00:00:00', '2023-02-29T00:00:00', '2024-08-03T24:00:00', '2024-08-03T00:00:60', '2024-08-03T00:00:00.1234567', '2024-08-03T00:00:00+24:00', '0000-01-01T00:00:00', 'now']) {
      expect(parseDatetime(bad).ok, bad).toBe(false);
    }
  });

  it('prints like Python isoformat in UTC', () => {
    expect(formatMicros(micros('2024-08-03T00:12:39'))).toBe('2024-08-03T00:12:39+00:00');
    expect(formatMicros(micros('2024-08-03T02:12:39.25+02:00'))).toBe('2024-08-03T00:12:39.250000+00:00');
    expect(formatMicros(micros('1969-12-31T23:59:59.999999Z'))).toBe('1969-12-31T23:59:59.999999+00:00');
  });

  it('round-trips every instant of years 1 to 9999', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }), fc.integer({ min: 0, max: 999 }), (date, extra) => {
        const text = `${date.toISOString().slice(0, -1)}${String(extra).padStart(3, '0')}Z`;
        const value = micros(text);
        expect(value).toBe(BigInt(date.getTime()) * 1000n + BigInt(extra));
        expect(micros(formatMicros(value))).toBe(value);
      }),
      { numRuns: 200 },
    );
  });
});
