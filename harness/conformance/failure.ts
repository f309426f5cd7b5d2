// A failed check: what was expected, what was seen, and how to see it again.

export interface FailureSpec {
  message: string;
  expected?: unknown;
  seen?: unknown;
  /** The requirement this failure breaks, when the test covers several. */
  requirement?: string;
  /**
   * A check judged on a result set that other rules make (a search by metadata, say): those rules.
   * When one of them failed in the run, this failure is its echo, and the requirement is blocked
   * by it instead of failed (harness/report/blocked-roots.ts).
   */
  reliesOn?: string[];
}

/** Thrown by checks; the test wrapper turns it into a FailureRecord for the report. */
export class ConformanceFailure extends Error {
  constructor(readonly spec: FailureSpec) {
    super(spec.message);
    this.name = 'ConformanceFailure';
  }
}

/**
 * A failure at the end of a wait for the target (a revision that had not ended when the deploy
 * timeout passed). A property stops at it: another case, or shrinking, would wait the whole
 * timeout again and tell nothing new.
 */
export class WaitTimedOut extends ConformanceFailure {
  constructor(spec: FailureSpec) {
    super(spec);
    this.name = 'WaitTimedOut';
  }
}

/** Thrown to end a test without a verdict: it could not judge its requirements, and says why. */
export class NotJudged extends Error {
  constructor(
    readonly kind: 'not-applicable' | 'skipped',
    readonly why: string,
    /** The capability the target lacks, for `not-applicable`. */
    readonly capability?: string,
  ) {
    super(why);
    this.name = 'NotJudged';
  }
}

export interface RecordedExchange {
  curl: string;
  /** `HTTP 422 {"detail": …}` or `no response: …`. */
  response: string;
}

/** One failure as the report keeps it. Every string is redacted. */
export interface FailureRecord {
  requirements: string[];
  message: string;
  expected?: string;
  seen?: string;
  /** The (shrunk) generated input of a property, as JSON text. */
  input?: string;
  seed?: number;
  /** fast-check's replay path of the counterexample. */
  path?: string;
  /** An `apc certify` line that runs this check again with the same seed. */
  repro: string;
  exchanges: RecordedExchange[];
  /** As FailureSpec.reliesOn: the rules that made the set this check judged. */
  reliesOn?: string[];
  /** Under a rule other than the test's own: the test that met this failure (whoever met it first). */
  foundIn?: string;
}

/**
 * What a test saw that contradicts its own statement, before it stopped at another rule's
 * failure: shown beside its blocked requirement, marked as not judged.
 */
export interface SeenRecord {
  requirements: string[];
  message: string;
  seen?: string;
}

/** Values for expected/seen become text once, so reports need no further formatting. */
export function describeValue(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return safeString(value);
  }
}

/**
 * String(value) that never throws: a null-prototype object (fast-check's records and dictionaries
 * draw them), or one whose toString is not a function, has no primitive form, and String() on it
 * throws a TypeError that would replace the failure being reported.
 */
export function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/**
 * A property's input as text: an input with a toString of its own (a command sequence, which
 * names its steps) by it, anything else as JSON. The failure's evidence keeps it whole; the
 * message, shown on one line and compared night to night, never holds it.
 */
export function describeInput(input: unknown): string | undefined {
  // Only a toString that is a function of the input's own: a null-prototype object has none, a generated key may be named toString.
  const own = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as { toString?: unknown }).toString : undefined;
  if (typeof own === 'function' && own !== Object.prototype.toString) return safeString(input);
  return describeValue(input);
}

/** The longest seen-value a failure line carries; the report's sections keep the whole answer. */
const SEEN_SHOWN = 120;

function cut(text: string, length: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > length ? `${line.slice(0, length)}…` : line;
}

/** `HTTP 404 {"detail":"Not Found"}` → `HTTP 404 Not Found`: the status, then the body's detail or its first bytes. */
function shortAnswer(text: string): string {
  const match = /^HTTP (\d{3})(?: ([\s\S]*))?$/.exec(text);
  if (!match) return cut(text, SEEN_SHOWN);
  const [, status, body = ''] = match;
  let detail: unknown;
  try {
    const json: unknown = JSON.parse(body);
    if (typeof json === 'object' && json !== null && 'detail' in json) detail = json.detail;
  } catch {
    // Not JSON: its first bytes say what it is.
  }
  const shown = detail === undefined ? body : typeof detail === 'string' ? detail : JSON.stringify(detail);
  return `HTTP ${status}${shown ? ` ${cut(shown, SEEN_SHOWN)}` : ''}`;
}

/**
 * What was seen, in a few words, for the one line a failure gets in the terminal and in a
 * report's tables: the check's own seen-value, else the last answer recorded.
 */
export function shortSeen(f: Pick<FailureRecord, 'seen' | 'exchanges'>): string {
  if (f.seen !== undefined && f.seen !== '') return shortAnswer(f.seen);
  const last = f.exchanges.at(-1);
  return last ? `last answer ${shortAnswer(last.response)}` : 'no exchange recorded';
}

/** A failure in one line: its message (first line) and what was seen. */
export function failureLine(f: Pick<FailureRecord, 'message' | 'seen' | 'exchanges'>): string {
  const message = f.message.split('\n')[0]!;
  return `${message} Seen: ${shortSeen(f)}`;
}
