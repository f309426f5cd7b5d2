// When requests to a URL get no answer, or streams from it pass their deadline, again and again,
// the target hangs there: the rest of the run fails such calls at once, naming the URL, instead
// of paying the deadline hundreds of times. vitest runs each suite file in its own process, so
// the counts are shared through a folder of the run (one small file per URL); without a folder
// (a single process) they stay in memory.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class CircuitBreaker {
  private readonly memory = new Map<string, string[]>();
  /** The file of each URL, named once: a hash per request was a tenth of the HTTP client's CPU. */
  private readonly files = new Map<string, string>();
  private dir: string | undefined;

  constructor(
    /** What is counted, for the message: "requests", "streams". */
    private readonly what: string,
    /** What each counted failure was, for the message: "got no complete answer". */
    private readonly failure: string,
    /** Failures in a row that open the breaker. */
    readonly limit: number,
  ) {}

  /** Shares the counts with every process given the same folder. */
  shareThrough(dir: string | undefined): void {
    if (dir !== this.dir) this.files.clear();
    this.dir = dir;
  }

  private file(key: string): string {
    let file = this.files.get(key);
    if (file === undefined) {
      file = join(this.dir!, `${this.what}-${createHash('sha256').update(key).digest('hex').slice(0, 16)}.log`);
      this.files.set(key, file);
    }
    return file;
  }

  private failures(key: string): string[] {
    if (!this.dir) return this.memory.get(key) ?? [];
    const file = this.file(key);
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  }

  /** Why nothing more is sent to `key`, or undefined while the breaker is closed. */
  refusal(key: string): string | undefined {
    const failures = this.failures(key);
    if (failures.length < this.limit) return undefined;
    return `not sent: the last ${failures.length} ${this.what} to ${key} ${this.failure} (the last: ${failures.at(-1)})`;
  }

  failed(key: string, detail: string): void {
    const line = detail.replace(/\s+/g, ' ');
    if (!this.dir) this.memory.set(key, [...(this.memory.get(key) ?? []), line]);
    else appendFileSync(this.file(key), `${line}\n`);
  }

  /** Forgets what earlier runs of this process counted in memory (a folder's counts are a run's own). */
  forget(): void {
    this.memory.clear();
  }

  succeeded(key: string): void {
    if (!this.dir) this.memory.delete(key);
    else if (this.failures(key).length > 0) writeFileSync(this.file(key), '');
  }
}

/** Requests to one base URL that got no answer (refused, reset, past the request deadline). */
export const requestBreaker = new CircuitBreaker('requests', 'got no complete answer', 2);
/** Event streams from one base URL that passed the stream deadline. */
export const streamBreaker = new CircuitBreaker('streams', 'passed their deadline', 2);

/**
 * A new run starts with closed breakers: in one process (a test file, the selftest) a port a
 * hanging target had is soon another target's, and the counts kept in memory are by URL.
 */
export function forgetBreakers(): void {
  requestBreaker.forget();
  streamBreaker.forget();
}

export function shareBreakersThrough(dir: string | undefined): void {
  requestBreaker.shareThrough(dir);
  streamBreaker.shareThrough(dir);
}
