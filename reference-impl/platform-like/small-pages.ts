// `small-pages`: listings answer at most a small page, whatever `limit` asks for (the spec shows
// no page-size limit), so a client that reads one page as the whole list misses what follows.
import { PLATFORM_DEFAULTS, type PlatformLike } from './behaviours.ts';

/** The number of items a listing answers for a requested `limit`. */
export function pageLimit(platform: PlatformLike, requested: number): number {
  return platform.has('small-pages') ? Math.min(requested, PLATFORM_DEFAULTS.pageSize) : requested;
}
