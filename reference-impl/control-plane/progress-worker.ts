// Drives revisions through their phases from the store, not from the request that created them:
// every process polls for due revisions, so progress survives a restart and several processes on
// one PostgreSQL database advance each revision exactly once.
import type { FastifyBaseLogger } from 'fastify';
import type { FaultCheck } from './faults.ts';
import { planProgress } from './revision-lifecycle.ts';
import type { ControlPlaneStore } from './store.ts';

export interface ProgressWorker {
  /** Stops polling and waits for a round in progress. Safe to call more than once. */
  stop(): Promise<void>;
}

/** Half a phase, so a phase overruns by at most half its length; at least 5 ms, at most 1 s. */
export function pollIntervalMs(phaseMs: number): number {
  return Math.min(1000, Math.max(5, Math.floor(phaseMs / 2)));
}

export function startProgressWorker(
  store: ControlPlaneStore,
  options: { phaseMs: number; faults: FaultCheck; log: FastifyBaseLogger },
): ProgressWorker {
  let round: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (round || stopped) return;
    const now = Date.now();
    round = store
      .advanceDue(now, planProgress({ now, phaseMs: options.phaseMs, faults: options.faults }))
      .then(() => undefined)
      .catch((error: unknown) => {
        // A failed round (the database restarting, say) is retried on the next tick.
        options.log.warn({ err: { message: (error as Error).message } }, 'revision progress round failed');
      })
      .finally(() => {
        round = undefined;
      });
  };
  const timer = setInterval(tick, pollIntervalMs(options.phaseMs));
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await round;
    },
  };
}
