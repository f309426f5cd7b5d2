// What a test leaves to do when it ends: delete what it created. Cleanups run in the reverse of
// the order they were registered (a thread goes before the assistant it ran on), except that
// cleanups marked `alongside` which follow one another run side by side, within the run's
// concurrency. Deleting deployments is such a case: each may wait for an asynchronous deletion
// (a real platform takes its time; a failing one makes every wait a poll interval), and a
// property's cases leave many of them.

export interface Cleanup {
  label: string;
  run: () => Promise<unknown>;
  /** Independent of the cleanups around it: may run beside the other `alongside` ones next to it. */
  alongside?: boolean;
}

/** Runs `cleanups` (in registration order) as above; returns one line per cleanup that failed. */
export async function runCleanups(cleanups: readonly Cleanup[], concurrency: number): Promise<string[]> {
  const errors: string[] = [];
  const attempt = async (c: Cleanup): Promise<void> => {
    try {
      await c.run();
    } catch (e) {
      errors.push(`${c.label}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const pending = [...cleanups].reverse();
  while (pending.length > 0) {
    const next = pending.shift()!;
    if (!next.alongside) {
      await attempt(next);
      continue;
    }
    const batch = [next];
    while (pending[0]?.alongside) batch.push(pending.shift()!);
    await inParallel(batch, Math.max(1, concurrency), attempt);
  }
  return errors;
}

async function inParallel<T>(items: readonly T[], limit: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await each(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
