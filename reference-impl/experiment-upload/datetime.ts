// Datetimes of the experiment upload. Times are compared exactly at microsecond precision (the
// precision of the real platform's Python datetimes; JS Date keeps only milliseconds), and a
// datetime without an offset is UTC (FIELD-NOTES). Output looks like Python's isoformat().

const PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

/** An instant as microseconds since the Unix epoch. */
export type Micros = bigint;

export type ParsedDatetime = { ok: true; micros: Micros } | { ok: false; msg: string };

const MICROS_PER_SECOND = 1_000_000n;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function parseDatetime(text: string): ParsedDatetime {
  const m = PATTERN.exec(text);
  if (!m) {
    return { ok: false, msg: `Input should be a valid datetime like 2024-08-03T00:12:39 or 2024-08-03T00:12:39.5+02:00; got ${JSON.stringify(text)}` };
  }
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = Number(m[6] ?? '0');
  const fraction = m[7] ?? '';
  if (fraction.length > 6) return { ok: false, msg: 'Input should be a valid datetime, second fraction value is more than 6 digits long' };
  if (year < 1) return { ok: false, msg: 'Input should be a valid datetime, year 0 is out of range' };
  if (month < 1 || month > 12) return { ok: false, msg: 'Input should be a valid datetime, month value is outside expected range of 1-12' };
  if (day < 1 || day > daysInMonth(year, month)) return { ok: false, msg: 'Input should be a valid datetime, day value is outside expected range' };
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, msg: 'Input should be a valid datetime, time value is outside expected range' };
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const offsetHours = Number(m[10]);
    const offsetMins = Number(m[11]);
    if (offsetHours > 23 || offsetMins > 59) return { ok: false, msg: 'Input should be a valid datetime, timezone offset is outside expected range' };
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const utcMs = date.getTime() - offsetMinutes * 60_000;
  const utcYear = new Date(utcMs).getUTCFullYear();
  if (utcYear < 1 || utcYear > 9999) return { ok: false, msg: 'Input should be a valid datetime, the instant in UTC falls outside years 1-9999' };
  const seconds = BigInt(utcMs / 1000);
  return { ok: true, micros: seconds * MICROS_PER_SECOND + BigInt(fraction.padEnd(6, '0')) };
}

/** `2024-08-03T00:12:39.500000+00:00`, or without the fraction when it is zero (as Python prints). */
export function formatMicros(micros: Micros): string {
  const seconds = micros / MICROS_PER_SECOND - (micros % MICROS_PER_SECOND < 0n ? 1n : 0n);
  const fraction = micros - seconds * MICROS_PER_SECOND;
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${whole}${fraction === 0n ? '' : `.${fraction.toString().padStart(6, '0')}`}+00:00`;
}

export function nowMicros(): Micros {
  return BigInt(Date.now()) * 1000n;
}

/** Seconds between two instants, as the platform reports latencies. */
export function secondsBetween(start: Micros, end: Micros): number {
  return Number(end - start) / 1e6;
}
