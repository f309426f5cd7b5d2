// `transient-errors`: now and then a GET is answered 503 with Retry-After, as a platform behind a
// load balancer does while an instance restarts. Which GETs is drawn from the seed; the request is
// not processed.
import type { FastifyRequest } from 'fastify';
import { PLATFORM_DEFAULTS, type PlatformLike } from './behaviours.ts';
import { seededRandom } from './seeded-random.ts';

export interface TransientErrors {
  /** Whether this request is answered 503. */
  strikes(request: FastifyRequest): boolean;
}

/** `salt` gives each listener its own sequence from the one seed. */
export function transientErrors(platform: PlatformLike, salt: number): TransientErrors {
  const random = seededRandom(platform.seed * 31 + salt);
  return {
    strikes: (request) => request.method === 'GET' && random() < 1 / PLATFORM_DEFAULTS.transientEvery,
  };
}
