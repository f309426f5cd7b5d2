// `bare-503s`: now and then a GET is answered 503 by the load balancer in front of the platform,
// with its own HTML page and no Retry-After, as while an instance restarts. Such a blip is brief:
// the same GET asked again is answered (the next GET of that path passes), so a client that tries
// again a few times always gets through. Which GETs is drawn from the seed.
import type { FastifyRequest } from 'fastify';
import { PLATFORM_DEFAULTS, type PlatformLike } from './behaviours.ts';
import { seededRandom } from './seeded-random.ts';

/** What a load balancer answers by itself when no instance is ready: no Retry-After, not JSON. */
export const LOAD_BALANCER_PAGE = '<html><body><h1>503 Service Unavailable</h1>No server is available to handle this request.</body></html>';

export interface Bare503s {
  /** Whether this request is answered the load balancer's 503. */
  strikes(request: FastifyRequest): boolean;
}

/** `salt` gives each listener its own sequence from the one seed. */
export function bare503s(platform: PlatformLike, salt: number): Bare503s {
  const random = seededRandom(platform.seed * 37 + salt);
  /** Paths whose last GET was struck: their next GET passes. */
  const struck = new Set<string>();
  return {
    strikes: (request) => {
      if (request.method !== 'GET') return false;
      if (struck.delete(request.url)) return false;
      if (random() >= 1 / PLATFORM_DEFAULTS.bareEvery) return false;
      struck.add(request.url);
      return true;
    },
  };
}
