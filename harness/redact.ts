// One redactor for everything the harness prints or writes. Secrets are literals: the profile's
// API keys, values listed in the profile, and every `secrets[].value` a suite sends. Each is
// replaced wherever it appears, so a secret echoed back inside a response body is caught too.

export const REDACTED = '[redacted]';

/** Secrets shorter than this are not treated as literals: replacing "a" everywhere helps nobody. */
const MIN_SECRET_LENGTH = 4;

/**
 * Secrets per regular expression. V8 runs one alternation of more than about 1,200 literals some
 * twenty times slower than two of half the size, and a run of many property cases collects more
 * than that: its keys and every secret its requests send.
 */
const SECRETS_PER_PATTERN = 500;

export class Redactor {
  private readonly secrets = new Set<string>();
  private patterns: RegExp[] | undefined;

  add(...values: (string | undefined | null)[]): void {
    let changed = false;
    for (const value of values) {
      if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH || this.secrets.has(value)) continue;
      this.secrets.add(value);
      // JSON-escaped forms appear in raw bodies; add them too.
      const escaped = JSON.stringify(value).slice(1, -1);
      if (escaped !== value) this.secrets.add(escaped);
      changed = true;
    }
    if (changed) this.patterns = undefined;
  }

  /**
   * Registers the values of every `secrets: [{name, value}]` array inside a JSON value, or inside
   * a generated input (objects that may refer to each other: each is visited once).
   */
  addFromBody(body: unknown, visited = new Set<object>()): void {
    if (body === null || typeof body !== 'object' || visited.has(body)) return;
    visited.add(body);
    if (Array.isArray(body)) {
      for (const item of body) this.addFromBody(item, visited);
      return;
    }
    for (const [key, value] of Object.entries(body)) {
      if (key === 'secrets' && Array.isArray(value)) {
        for (const s of value) if (s && typeof s === 'object') this.add((s as { value?: unknown }).value as string);
      } else {
        this.addFromBody(value, visited);
      }
    }
  }

  text(input: string): string {
    if (this.secrets.size === 0) return input;
    // Longest first, across the patterns too: a secret that holds a shorter one is replaced whole.
    if (!this.patterns) {
      const sorted = [...this.secrets].sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      this.patterns = [];
      for (let at = 0; at < sorted.length; at += SECRETS_PER_PATTERN) this.patterns.push(new RegExp(sorted.slice(at, at + SECRETS_PER_PATTERN).join('|'), 'g'));
    }
    return this.patterns.reduce((text, pattern) => text.replace(pattern, REDACTED), input);
  }

  /** A deep copy of a JSON-like value with every secret replaced in every string. */
  value<T>(input: T): T {
    if (typeof input === 'string') return this.text(input) as T;
    if (Array.isArray(input)) return input.map((v) => this.value(v)) as T;
    if (input !== null && typeof input === 'object') {
      return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, this.value(v)])) as T;
    }
    return input;
  }
}

/**
 * The redactor of a one-shot command's process (apc init, cleanup, contracts, serve, report): what
 * it prints and writes goes through it. A certification keeps its own, on its run (RunDraft in the
 * certifying process, SuiteRun in a suite worker), so runs that share a process (apc selftest's)
 * neither mask nor hold each other's secrets; test/harness/run-state.test.ts holds harness/run/,
 * suite-runner/ and conformance/ to that.
 */
export const redactor = new Redactor();
