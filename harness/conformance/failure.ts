// A failed check: what was expected, what was seen, and how to see it again.

export interface FailureSpec {
  message: string;
  expected?: unknown;
  seen?: unknown;
  /** The requirement this failure breaks, when the test covers several. */
  requirement?: string;
}

/** Thrown by checks; the test wrapper turns it into a FailureRecord for the report. */
export class ConformanceFailure extends Error {
  constructor(readonly spec: FailureSpec) {
    super(spec.message);
    this.name = 'ConformanceFailure';
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
}

/** Values for expected/seen become text once, so reports need no further formatting. */
export function describeValue(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
