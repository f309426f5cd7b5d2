// The platform-like behaviours' names and settings, and the pieces that decide alone: the key
// throttle's windows, the seeded choice of 503s, the page cap.
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { parseBehaviours, PLATFORM_BEHAVIOURS, PLATFORM_DEFAULTS, resolvePlatformLike } from '../../../reference-impl/platform-like/behaviours.ts';
import { pageLimit } from '../../../reference-impl/platform-like/small-pages.ts';
import { keyThrottle } from '../../../reference-impl/platform-like/throttle.ts';
import { transientErrors } from '../../../reference-impl/platform-like/transient-errors.ts';

const request = (method: string, key?: string) => ({ method, headers: key === undefined ? {} : { 'x-api-key': key } }) as unknown as FastifyRequest;

describe('platform-like behaviour names', () => {
  it('reads all, one, or several behaviours, and names the unknown ones', () => {
    expect(parseBehaviours('all')).toEqual([...PLATFORM_BEHAVIOURS]);
    expect(parseBehaviours('')).toEqual([...PLATFORM_BEHAVIOURS]);
    expect(parseBehaviours('throttle, async-delete,throttle')).toEqual(['throttle', 'async-delete']);
    expect(parseBehaviours('throttle,slow')).toMatch(/unknown platform-like behaviour "slow"; use all, or some of slow-builds, throttle/);
  });

  it('scales durations and refuses a time scale that is not above 0', () => {
    const platform = resolvePlatformLike({ behaviours: ['slow-builds'], timeScale: 0.1 });
    expect(platform.has('slow-builds')).toBe(true);
    expect(platform.has('throttle')).toBe(false);
    expect(platform.scaled(PLATFORM_DEFAULTS.phaseMs)).toBe(150);
    expect(platform.scaledSeconds(1)).toBe(0.1);
    expect(resolvePlatformLike({ behaviours: [] }).scaledSeconds(1)).toBe(1);
    expect(() => resolvePlatformLike({ behaviours: [], timeScale: 0 })).toThrow(/above 0/);
  });
});

describe('throttle', () => {
  it('answers the 16th request of a key in a window with the seconds left, counts keys apart, and opens a new window after', () => {
    const throttle = keyThrottle(resolvePlatformLike({ behaviours: ['throttle'] }));
    const start = 1_000_000;
    for (let i = 0; i < PLATFORM_DEFAULTS.requestsPerWindow; i++) expect(throttle.check(request('GET', 'a'), start + i)).toBeUndefined();
    expect(throttle.check(request('GET', 'a'), start + 20)).toBe(1);
    expect(throttle.check(request('POST', 'b'), start + 20)).toBeUndefined();
    expect(throttle.check(request('GET'), start + 20)).toBeUndefined();
    expect(throttle.check(request('GET', 'a'), start + PLATFORM_DEFAULTS.windowMs)).toBeUndefined();
  });

  it.each([
    [5, 100, 5],
    [0.1, 2, 0.1],
    [0.5, 10, 0.5],
  ])('at time scale %s, %s ms into the window, states Retry-After as the platform\'s whole seconds on the scaled clock: %s', (timeScale, intoMs, seconds) => {
    const throttle = keyThrottle(resolvePlatformLike({ behaviours: ['throttle'], timeScale }));
    for (let i = 0; i <= PLATFORM_DEFAULTS.requestsPerWindow; i++) throttle.check(request('GET', 'a'), 10_000);
    expect(throttle.check(request('GET', 'a'), 10_000 + intoMs)).toBe(seconds);
  });
});

describe('transient errors', () => {
  const strikes = (seed: number, method = 'GET') => {
    const errors = transientErrors(resolvePlatformLike({ behaviours: ['transient-errors'], seed }), 1);
    return Array.from({ length: 4000 }, (_, i) => (errors.strikes(request(method, 'k')) ? i : -1)).filter((i) => i >= 0);
  };

  it('strikes about one GET in 40, the same ones for the same seed, other ones for another', () => {
    const first = strikes(7);
    expect(first.length).toBeGreaterThan(50);
    expect(first.length).toBeLessThan(150);
    expect(strikes(7)).toEqual(first);
    expect(strikes(8)).not.toEqual(first);
  });

  it('never strikes a request that is not a GET', () => {
    expect(strikes(7, 'POST')).toEqual([]);
  });
});

describe('small pages', () => {
  it('caps a page only when the behaviour is on', () => {
    expect(pageLimit(resolvePlatformLike({ behaviours: ['small-pages'] }), 100)).toBe(PLATFORM_DEFAULTS.pageSize);
    expect(pageLimit(resolvePlatformLike({ behaviours: ['small-pages'] }), 3)).toBe(3);
    expect(pageLimit(resolvePlatformLike({ behaviours: [] }), 100)).toBe(100);
  });
});
