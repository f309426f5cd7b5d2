// The platform-like behaviours of the reference: what the real hosted platform does that the spec
// allows (or is silent on) and the plain reference never shows. Each can be switched on alone;
// README.md describes them. Durations are the platform's, multiplied by a time scale for tests.

export const PLATFORM_BEHAVIOURS = [
  'slow-builds',
  'throttle',
  'transient-errors',
  'bare-503s',
  'slow-posts',
  'async-delete',
  'busy-deployments',
  'small-pages',
  'many-deployments',
] as const;

export type PlatformBehaviour = (typeof PLATFORM_BEHAVIOURS)[number];

export interface PlatformLikeOptions {
  /** The behaviours switched on (all of PLATFORM_BEHAVIOURS for the whole platform). */
  behaviours: readonly PlatformBehaviour[];
  /** Multiplies every duration below (0.1: ten times faster). Default 1. */
  timeScale?: number;
  /** Seed of the occasional 503s, so a run can be repeated. Default 1. */
  seed?: number;
}

/** The platform's timings and sizes at time scale 1. */
export const PLATFORM_DEFAULTS = {
  /** Each revision phase (the real platform takes minutes per build; this keeps runs usable). */
  phaseMs: 1500,
  /** How long a deleted deployment stays readable as AWAITING_DELETE. */
  deleteLingerMs: 3000,
  /** Requests one key may send per window on one listener before it is answered 429. */
  requestsPerWindow: 15,
  windowMs: 1000,
  /** One GET in this many is answered 503 with Retry-After. */
  transientEvery: 40,
  /** One GET in this many is answered the load balancer's bare 503 (`bare-503s`; never the same path twice in a row). */
  bareEvery: 20,
  /** How long every POST waits before it is processed (`slow-posts`: a create that provisions a database first). */
  postMs: 2000,
  /** Largest page a listing answers, whatever `limit` asks for. */
  pageSize: 10,
  /** Deployments the first tenant holds before any client acts. */
  existingDeployments: 120,
} as const;

/** The resolved settings every listener reads. */
export interface PlatformLike {
  has(behaviour: PlatformBehaviour): boolean;
  timeScale: number;
  seed: number;
  /** A platform duration on this run's clock. */
  scaled(ms: number): number;
  /**
   * A wait the platform states in whole seconds (Retry-After), on this run's clock: the same whole
   * seconds at time scale 1, a fraction of a second (to the millisecond) on a faster clock, so a
   * client waits as long relative to the scaled windows as it would on the platform.
   */
  scaledSeconds(seconds: number): number;
}

export function resolvePlatformLike(options: PlatformLikeOptions | undefined): PlatformLike {
  const on = new Set(options?.behaviours ?? []);
  const timeScale = options?.timeScale ?? 1;
  if (!(timeScale > 0)) throw new RangeError(`platform-like time scale must be above 0, found ${timeScale}`);
  return {
    has: (behaviour) => on.has(behaviour),
    timeScale,
    seed: options?.seed ?? 1,
    scaled: (ms) => Math.max(1, Math.round(ms * timeScale)),
    scaledSeconds: (seconds) => Math.round(seconds * timeScale * 1000) / 1000,
  };
}

/**
 * `all`, or a comma-separated list of behaviour names; a message naming the unknown ones otherwise.
 */
export function parseBehaviours(text: string): PlatformBehaviour[] | string {
  const names = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0 || (names.length === 1 && names[0] === 'all')) return [...PLATFORM_BEHAVIOURS];
  const unknown = names.filter((n) => !(PLATFORM_BEHAVIOURS as readonly string[]).includes(n));
  if (unknown.length > 0) return `unknown platform-like behaviour ${unknown.map((n) => JSON.stringify(n)).join(', ')}; use all, or some of ${PLATFORM_BEHAVIOURS.join(', ')}.`;
  return [...new Set(names)] as PlatformBehaviour[];
}
