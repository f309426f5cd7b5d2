// Datetimes of an upload: instants in milliseconds, written zoned (`Z` or a ±hh:mm offset) or
// naive (no zone; the field notes read those as UTC). One instant, many spellings: the window
// rule compares instants, not text.
import fc from 'fast-check';

/** How one datetime is written. */
export type Zone = { kind: 'utc' } | { kind: 'offset'; minutes: number } | { kind: 'naive' };

function pad(n: number, width = 2): string {
  return String(Math.abs(n)).padStart(width, '0');
}

/** `2024-08-03T00:12:39.123Z`, `…+05:30`, or naive `2024-08-03T00:12:39.123`. */
export function formatInstant(ms: number, zone: Zone): string {
  const shift = zone.kind === 'offset' ? zone.minutes : 0;
  const local = new Date(ms + shift * 60_000).toISOString().slice(0, 23);
  if (zone.kind === 'naive') return local;
  if (zone.kind === 'utc') return `${local}Z`;
  const sign = zone.minutes < 0 ? '-' : '+';
  return `${local}${sign}${pad(Math.trunc(zone.minutes / 60))}:${pad(zone.minutes % 60)}`;
}

/** Offsets in use around the world, including half and quarter hours and both extremes. */
const OFFSETS = [-720, -600, -480, -300, -210, -60, 0, 60, 120, 330, 345, 480, 570, 765, 840];

export const zonedZone: fc.Arbitrary<Zone> = fc.oneof(fc.constant<Zone>({ kind: 'utc' }), fc.constantFrom(...OFFSETS).map((minutes): Zone => ({ kind: 'offset', minutes })));

/** Instants from 2020 to 2030 (a platform may refuse times far from now). */
export const instant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) });

/**
 * How an upload writes its datetimes: all naive; each zoned with an offset of its own; or a
 * naive window with zoned rows and feedback, which only a server reading naive as UTC places
 * where they are meant.
 */
export type Spelling = { kind: 'naive' } | { kind: 'zoned'; zones: Zone[] } | { kind: 'naive-window'; zones: Zone[] };

const zones = fc.array(zonedZone, { minLength: 1, maxLength: 4 });

/** All naive or all zoned (the two spellings every upload may use). */
export const spelling: fc.Arbitrary<Spelling> = fc.oneof(
  fc.constant<Spelling>({ kind: 'naive' }),
  zones.map((list): Spelling => ({ kind: 'zoned', zones: list })),
);

export const naiveWindowSpelling: fc.Arbitrary<Spelling> = zones.map((list): Spelling => ({ kind: 'naive-window', zones: list }));

export interface DatetimeWriter {
  /** experiment_start_time and experiment_end_time. */
  window(ms: number): string;
  /** Row and feedback datetimes: the n-th takes the n-th zone in turn. */
  other(ms: number): string;
}

export function writer(s: Spelling): DatetimeWriter {
  let n = 0;
  const naive = (ms: number) => formatInstant(ms, { kind: 'naive' });
  const zoned = (ms: number) => (s.kind === 'naive' ? naive(ms) : formatInstant(ms, s.zones[n++ % s.zones.length]!));
  return { window: s.kind === 'zoned' ? zoned : naive, other: zoned };
}

/** The instant a datetime text denotes; naive texts read as UTC. NaN when unreadable. */
export function instantOf(text: string): number {
  const zoned = /(?:Z|[+-]\d{2}:\d{2})$/i.test(text);
  return Date.parse(zoned ? text : `${text}Z`);
}
