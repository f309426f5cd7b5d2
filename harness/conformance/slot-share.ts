// Each suite worker's share of the run's requests in flight (the profile's `concurrency`). At the
// start every worker gets an equal share; as suite files end, fewer workers are left running, and
// the last ones would otherwise keep one slot each while the others' slots stay idle: on a slow
// target (every POST taking seconds) the last file alone then sends its requests one at a time.
// The certifying process counts the files that ended and writes the share of a running worker
// into the run's folder (RunContext.stateDir); each worker's limiter reads it before a request and
// only ever grows. Running files never outnumber the files not yet ended, which only shrink, so the
// shares granted never add up to more than `concurrency`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunContext } from './run-context.ts';

const SLOT_SHARE_FILE = 'request-slots.txt';

/** How often a worker reads the share again (a file read; requests take longer than this on a slow target). */
const READ_EVERY_MS = 500;

/** A running worker's share: the requests in flight divided among the files that may still run at once. */
export function slotShare(concurrency: number, workers: number, filesLeft: number): number {
  return Math.max(1, Math.floor(concurrency / Math.max(1, Math.min(workers, filesLeft))));
}

/**
 * The certifying process's side: call `fileEnded` as each of the run's files ends; the share is
 * written whenever it grows.
 */
export function slotSharePublisher(stateDir: string, concurrency: number, workers: number, files: readonly string[]): { fileEnded(file: string): void } {
  const left = new Set(files);
  let written = slotShare(concurrency, workers, left.size);
  return {
    fileEnded(file) {
      if (!left.delete(file)) return;
      const share = slotShare(concurrency, workers, left.size);
      if (share <= written) return;
      written = share;
      writeFileSync(join(stateDir, SLOT_SHARE_FILE), String(share));
    },
  };
}

/** A worker's side: the share granted so far (its starting share until the certifying process writes one). */
export function slotShareReader(run: RunContext): () => number {
  let share = run.workerConcurrency;
  let readAt = 0;
  return () => {
    const now = Date.now();
    if (!run.stateDir || now - readAt < READ_EVERY_MS) return share;
    readAt = now;
    try {
      share = Math.max(share, Number(readFileSync(join(run.stateDir, SLOT_SHARE_FILE), 'utf8')) || 0);
    } catch {
      // Not written yet: every file is still to run.
    }
    return share;
  };
}
