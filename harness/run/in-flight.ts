// How many requests a run keeps in flight against a slow target when the user did not say
// (--concurrency, APC_CONCURRENCY, the profile's `concurrency`, or the run being resumed). The
// default of 4 suits a target that answers in milliseconds: there the harness's own work is what
// takes the time. A target measured slow as the run starts (latency.ts: a POST or a read of a
// second or more, as a hosted control plane that provisions a database on create answers) spends
// the run waiting, not working: its requests' own time, divided by the requests in flight, is the
// floor of the run's wall time (expected-time.ts). Such a run sends about 800 POSTs; answered in
// 2 s each, that is 400 s at 4 in flight, and 200 s at 8, which certifies within 5 minutes with
// the harness's own work and the revision waits beside it (docs/real-platforms.md, "Latency and
// slow platforms", measured with `npm run bench -- --only slow-posts`). More than 8 would ask a
// slow platform for more at once than a quick one is ever asked for per second of its work, for
// little: the run's longest file then decides. A platform that throttles still slows the run down
// (429 and Retry-After are waited out as always, harness/http/throttling.ts), and an explicit
// setting always wins.
import type { Latency } from './latency.ts';

/** An answer this late makes the target slow: the run mostly waits on it. */
export const SLOW_TARGET_MS = 1000;

/** The requests in flight against a slow target, unless the user said otherwise. */
export const SLOW_TARGET_CONCURRENCY = 8;

export interface InFlightChoice {
  concurrency: number;
  /** What the run prints: how many, and why. */
  line: string;
}

/** The requests in flight for a target whose `latency` was measured, when more than `current`; undefined to keep it. */
export function inFlightFor(latency: Latency, current: number): InFlightChoice | undefined {
  const answers = Object.values(latency).flatMap((l) => [
    { kind: 'POSTs', ms: l.postMs },
    { kind: 'reads', ms: l.readMs },
  ]);
  const slowest = answers.reduce((a, b) => (b.ms > a.ms ? b : a), { kind: 'POSTs', ms: 0 });
  if (slowest.ms < SLOW_TARGET_MS || current >= SLOW_TARGET_CONCURRENCY) return undefined;
  return {
    concurrency: SLOW_TARGET_CONCURRENCY,
    line: `  concurrency ${SLOW_TARGET_CONCURRENCY}: the target answers ${slowest.kind} in ${(slowest.ms / 1000).toFixed(1)} s, so the run keeps more requests in flight while it waits (--concurrency sets it).`,
  };
}
