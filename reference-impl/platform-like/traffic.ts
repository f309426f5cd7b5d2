// The platform-like behaviours that act on any request of any listener before it is processed:
// throttling (429) and transient errors (503), both with Retry-After and the spec's `{detail}` body,
// a load balancer's bare 503 (an HTML page, no Retry-After), and slow POSTs.
import type { FastifyInstance } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { PLATFORM_DEFAULTS, type PlatformLike } from './behaviours.ts';
import { keyThrottle } from './throttle.ts';
import { transientErrors } from './transient-errors.ts';
import { bare503s, LOAD_BALANCER_PAGE } from './bare-503s.ts';

export const RATE_LIMITED = 'Rate limit exceeded';
export const UNAVAILABLE = 'Service temporarily unavailable';

const LISTENERS = { 'control-plane': 1, 'agent-server': 2, 'experiment-upload': 3 } as const;

export function installPlatformTraffic(app: FastifyInstance, platform: PlatformLike, listener: keyof typeof LISTENERS): void {
  const throttle = platform.has('throttle') ? keyThrottle(platform) : undefined;
  const transient = platform.has('transient-errors') ? transientErrors(platform, LISTENERS[listener]) : undefined;
  const bare = platform.has('bare-503s') ? bare503s(platform, LISTENERS[listener]) : undefined;
  const postMs = platform.has('slow-posts') ? platform.scaled(PLATFORM_DEFAULTS.postMs) : 0;
  if (!throttle && !transient && !bare && postMs === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    // slow-posts: the first byte of every POST's answer comes this late, as on a platform whose create provisions a database.
    if (postMs > 0 && request.method === 'POST') await sleep(postMs);
    const wait = throttle?.check(request, Date.now());
    if (wait !== undefined) return reply.code(429).header('retry-after', String(wait)).type('application/json').send({ detail: RATE_LIMITED });
    if (transient?.strikes(request)) return reply.code(503).header('retry-after', String(platform.scaledSeconds(1))).type('application/json').send({ detail: UNAVAILABLE });
    if (bare?.strikes(request)) return reply.code(503).type('text/html').send(LOAD_BALANCER_PAGE);
    return undefined;
  });
}
