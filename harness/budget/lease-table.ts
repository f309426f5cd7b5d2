// The run's pool of shared things (deployments that serve many rules, the deployment CP-DEL-001
// deleted), lent to one test at a time. Under a budget the tests that share run in several suite
// workers at once; a test on a pooled deployment counts the revisions before and after its own
// PATCHes, so no other test may change it meanwhile: a key is leased to one holder, the others
// wait in the order they asked. The certifying process keeps one table for all its workers
// (broker.ts); a test run without it keeps one per worker.
//
// A busy key makes the asker wait; the table never opens a second entry of a key on its own: a
// second pooled deployment of a kind is a key of its own ("internal_container/2"), assigned to its
// tests before the run by spread.ts out of the budget's room, which the plan counts too, so the
// plan stays an upper bound of what the run creates.
//
// Tests of one suite file that wait for a key get it before the tests of other files that wait
// too: a file's tests may build on what the one before left on the deployment (the revisions
// history of revisions-listing.suite.ts, whose PATCHes the plan counts once), which a test of
// another file would change in between. Otherwise first come, first served.
//
// A key's value is whatever its first holder made (an accepted create and its first listing, say)
// and is handed to every later holder. A holder that leaves it changed beyond use (a failed test)
// drops it: the next holder gets none and makes another.

/** A lease granted: its token (to release it with) and the key's value, absent when none is made yet. */
export interface Granted {
  token: string;
  value?: unknown;
}

/** How a holder gives a key back: with the value it made, or dropping the value the key had. */
export interface Release {
  value?: unknown;
  drop?: boolean;
}

interface Entry {
  value?: unknown;
  holder?: string;
  /** The holder's group (its suite file). */
  group?: string;
  /** Who waits for the key, in the order they asked. */
  waiting: { grant: (granted: Granted) => void; cancelled: boolean; group?: string }[];
}

export class LeaseTable {
  private readonly entries = new Map<string, Entry>();
  /** Token → the key it holds. */
  private readonly held = new Map<string, string>();
  private issued = 0;

  /**
   * Leases `key`: at once when it is free, else when the holders before have released it. An
   * aborted `signal` takes the request out of the queue (a worker that went away).
   */
  lease(key: string, signal?: AbortSignal, group?: string): Promise<Granted> {
    const entry = this.entryOf(key);
    if (entry.holder === undefined) return Promise.resolve(this.grant(key, entry, group));
    return new Promise((resolve, reject) => {
      const waiter = { grant: resolve, cancelled: false, ...(group !== undefined ? { group } : {}) };
      entry.waiting.push(waiter);
      signal?.addEventListener('abort', () => {
        waiter.cancelled = true;
        reject(new Error(`the lease of ${key} was given up while waiting`));
      });
    });
  }

  /** Gives a lease back, and the key to the next who waits. False when the token holds nothing (released already). */
  release(token: string, release: Release = {}): boolean {
    const key = this.held.get(token);
    if (key === undefined) return false;
    this.held.delete(token);
    const entry = this.entryOf(key);
    entry.holder = undefined;
    if (release.drop) delete entry.value;
    else if (release.value !== undefined) entry.value = release.value;
    entry.waiting = entry.waiting.filter((w) => !w.cancelled);
    const sameGroup = entry.group === undefined ? -1 : entry.waiting.findIndex((w) => w.group === entry.group);
    const [next] = entry.waiting.splice(Math.max(0, sameGroup), 1);
    if (next) next.grant(this.grant(key, entry, next.group));
    return true;
  }

  /** The key a token holds, if it still does. */
  holds(token: string): string | undefined {
    return this.held.get(token);
  }

  private entryOf(key: string): Entry {
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = { waiting: [] }));
    return entry;
  }

  private grant(key: string, entry: Entry, group: string | undefined): Granted {
    const token = `${key}#${++this.issued}`;
    entry.holder = token;
    entry.group = group;
    this.held.set(token, key);
    return { token, ...(entry.value !== undefined ? { value: entry.value } : {}) };
  }
}
