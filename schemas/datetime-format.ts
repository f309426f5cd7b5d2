// The loader's `date-time` format: RFC 3339 date-times, and also timezone-naive ones
// (`2024-08-03T00:12:39`, read as UTC), which the upload endpoint's documented example sends
// (FIELD-NOTES). Like the platform's parser it takes `T`, `t` or a space between date and time,
// optional seconds and fraction, and an offset with or without its colon.

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:[Zz]|[+-](\d{2}):?(\d{2}))?$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (DAYS[month - 1] ?? 0);
}

/** Whether `text` is a date-time, with or without an offset. */
export function isDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = Number(m[6] ?? '0');
  const offsetHours = Number(m[7] ?? '0');
  const offsetMinutes = Number(m[8] ?? '0');
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) &&
    hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59
  );
}
