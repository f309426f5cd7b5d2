// Throttling (429) and transient errors (503) are the target's environment, not its conformance:
// the real platform limits each key per endpoint and window, and a load balancer answers 503 while
// an instance restarts, often without Retry-After. The HTTP client waits as the target asks (or
// backs off) and sends the request again; only the final answer is judged. This file holds when an answer is such a
// refusal, how long to wait, what may be sent again, and the tally the report shows.
import type { InterfaceName } from '../profile/profile.ts';
import type { Exchange } from './exchange.ts';

/** 429: the request was not processed (any method may be sent again). 503: the target is briefly unavailable. */
export type TransientKind = 'throttled' | 'unavailable';

export function transientKind(exchange: Exchange): TransientKind | undefined {
  const status = exchange.response?.status;
  if (status === 429) return 'throttled';
  if (status === 503) return 'unavailable';
  return undefined;
}

/**
 * A 503 without Retry-After (a load balancer's own answer): the target said nothing of how long
 * to wait, so it is tried again only a few times, with a backoff, within the request deadline
 * (timeouts.requestMs); one that persists past that is the target's unavailability.
 */
export const isBare503 = (exchange: Exchange): boolean => exchange.response?.status === 503 && exchange.response.headers['retry-after'] === undefined;

/** Answers a bare 503 gets at most (the first and the tries again), before the request is given up. */
export const BARE_503_ANSWERS = 4;

/** One request's refusals so far: when it was first sent, and its bare 503s (no Retry-After) apart. */
export interface RefusalTally {
  firstSent: number;
  bare: number;
  firstBareAt?: number;
}

export const refusalTally = (): RefusalTally => ({ firstSent: Date.now(), bare: 0 });

export function countBare(tally: RefusalTally, exchange: Exchange): void {
  if (!isBare503(exchange)) return;
  tally.bare += 1;
  tally.firstBareAt ??= Date.now();
}

/**
 * Why a request answered 503 without Retry-After is not sent again: BARE_503_ANSWERS such answers,
 * or the request deadline passed since the first. Counted apart from the 429s and the 503s with
 * Retry-After the request met (waited out as asked): a GET throttled three times, then struck
 * once by a load balancer's blip, was given up as unavailable on a target that follows the spec.
 */
export function bareUnavailable(tally: RefusalTally, wait: number, deadline: number, what: string): string | undefined {
  const since = tally.firstBareAt ?? tally.firstSent;
  if (tally.bare < BARE_503_ANSWERS && Date.now() + wait - since <= deadline) return undefined;
  return `the target was unavailable: ${tally.bare} answer(s) 503 without Retry-After to ${what} over ${((Date.now() - since) / 1000).toFixed(1)} s (tried again with a backoff, at most ${BARE_503_ANSWERS} answers within the request deadline of ${deadline} ms)`;
}

/** The longest single wait the harness accepts from Retry-After (the real platform's windows are a minute). */
export const MAX_WAIT_MS = 60_000;

/**
 * How long to wait before attempt `attempt` + 1: Retry-After in seconds or as an HTTP date, capped
 * at MAX_WAIT_MS; without it (or unreadable), a backoff of 1, 2, 4 ... seconds, capped at 30.
 */
export function waitMs(exchange: Exchange, attempt: number, now = Date.now()): number {
  const header = exchange.response?.headers['retry-after']?.trim();
  let ms: number | undefined;
  if (header && /^\d+(\.\d+)?$/.test(header)) ms = Number(header) * 1000;
  else if (header && !Number.isNaN(Date.parse(header))) ms = Math.max(0, Date.parse(header) - now);
  ms ??= Math.min(30_000, 1000 * 2 ** attempt);
  return Math.min(MAX_WAIT_MS, Math.max(0, Math.round(ms)));
}

/**
 * Whether the request may be sent again after a 503 without asking whether it took effect: the
 * idempotent methods, and the spec's read-only POSTs (the agent server's searches and counts).
 */
export function safeToResend(method: string, url: string): boolean {
  if (['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'].includes(method.toUpperCase())) return true;
  return method.toUpperCase() === 'POST' && /\/(search|count)$/.test(new URL(url).pathname);
}

/** Per interface: answers that were throttled or transient, requests that stayed so, and the time spent waiting. */
export interface TransientCounts {
  throttled: number;
  unavailable: number;
  /** Requests the harness stopped sending again (their test could not be judged). */
  gaveUp: number;
  waitedMs: number;
}

export type TransientTally = Partial<Record<InterfaceName, TransientCounts>>;

export const emptyCounts = (): TransientCounts => ({ throttled: 0, unavailable: 0, gaveUp: 0, waitedMs: 0 });

export function addTally(into: TransientTally, from: TransientTally | undefined): TransientTally {
  for (const [name, counts] of Object.entries(from ?? {}) as [InterfaceName, TransientCounts][]) {
    const sum = (into[name] ??= emptyCounts());
    sum.throttled += counts.throttled;
    sum.unavailable += counts.unavailable;
    sum.gaveUp += counts.gaveUp;
    sum.waitedMs += counts.waitedMs;
  }
  return into;
}

/** One line per interface, for the terminal and the Markdown report: "control-plane: 12 throttled, 3 unavailable, waited 14.2 s". */
export function tallyLines(tally: TransientTally | undefined): string[] {
  return (Object.entries(tally ?? {}) as [InterfaceName, TransientCounts][]).map(
    ([name, c]) =>
      `${name}: ${c.throttled} answer(s) 429 (throttled), ${c.unavailable} answer(s) 503 (transient), waited ${(c.waitedMs / 1000).toFixed(1)} s${c.gaveUp > 0 ? `; ${c.gaveUp} request(s) still refused when the harness gave up` : ''}`,
  );
}

/**
 * Thrown by the client when a request stays throttled or unavailable past the profile's
 * timeouts.throttleMs, or a 503 leaves a create or PATCH that cannot be safely sent again: the
 * test cannot judge its requirements, and says why (never a failure).
 */
export class TargetKeptRefusing extends Error {
  constructor(readonly why: string) {
    super(why);
    this.name = 'TargetKeptRefusing';
  }
}
