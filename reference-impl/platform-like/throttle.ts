// `throttle`: a per-key rate limit in fixed windows, as the real platform's (field notes: per key,
// fixed windows, 429 with Retry-After). A throttled request is not processed.
import type { FastifyRequest } from 'fastify';
import { PLATFORM_DEFAULTS, type PlatformLike } from './behaviours.ts';

export interface Throttle {
  /** Seconds the caller should wait when `request` is over its key's limit (Retry-After), else undefined. */
  check(request: FastifyRequest, now: number): number | undefined;
}

export function keyThrottle(platform: PlatformLike): Throttle {
  const windowMs = platform.scaled(PLATFORM_DEFAULTS.windowMs);
  /** Requests per key in the current window. */
  const counts = new Map<string, number>();
  let windowStart = 0;
  return {
    check(request, now) {
      const key = request.headers['x-api-key'];
      // Requests without a key are judged by authentication, not counted.
      if (typeof key !== 'string' || key === '') return undefined;
      // A window opens at the first request after the last one closed.
      if (now - windowStart >= windowMs) {
        windowStart = now;
        counts.clear();
      }
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      if (count <= PLATFORM_DEFAULTS.requestsPerWindow) return undefined;
      // Retry-After: the rest of the window in the platform's whole seconds (rounded up), on this run's clock.
      const platformMs = Math.round((windowStart + windowMs - now) / platform.timeScale);
      return platform.scaledSeconds(Math.max(1, Math.ceil(platformMs / 1000)));
    },
  };
}
