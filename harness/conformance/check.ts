// The context a conformance test gets: clients bound to the target, recorded exchanges,
// run-scoped names, cleanup, polling, property runs, and checks that fail with what was
// expected and what was seen.
import fc from 'fast-check';
import { validate, type SchemaName } from '../../schemas/index.ts';
import { InterfaceClient, Recorder, type RequestOptions, type StreamHandle } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { describeResponse } from '../http/curl.ts';
import { Limiter } from '../http/limiter.ts';
import type { InterfaceName, TargetProfile } from '../profile.ts';
import { readSse, type SseEvent, type SseResult } from '../sse/reader.ts';
import { ConformanceFailure, describeValue, type FailureSpec } from './failure.ts';
import type { RunContext } from './run-context.ts';

/** Details of a failed property, kept for the report. */
export interface PropertyFailure {
  input: unknown;
  seed: number;
  path: string | undefined;
  /** Exchanges of the shrunk case, replayed once more after shrinking. */
  exchanges: Exchange[];
  cause: unknown;
}

export interface PropertyOptions<T> {
  numRuns?: number;
  /**
   * The class the generator meant for this input (valid / invalid of some kind). Shrinking can
   * turn an invalid payload into a valid one; such a case is discarded, never reported.
   */
  stillClassified?: (input: T) => boolean;
}

export interface PollOptions {
  what: string;
  timeoutMs?: number;
  intervalMs?: number;
}

let limiterForWorker: Limiter | undefined;
let nameCounter = 0;

export class Check {
  readonly profile: TargetProfile;
  readonly recorder = new Recorder();
  readonly cleanups: { label: string; run: () => Promise<unknown> }[] = [];
  propertyFailure: PropertyFailure | undefined;
  private readonly clients = new Map<InterfaceName, InterfaceClient>();
  private propertyIndex = 0;

  constructor(
    readonly run: RunContext,
    /** Seed base of this test: the run seed mixed with the test's title. */
    readonly testSeed: number,
  ) {
    this.profile = run.profile;
    limiterForWorker ??= new Limiter(run.workerConcurrency);
  }

  private client(name: InterfaceName): InterfaceClient {
    let client = this.clients.get(name);
    if (!client) {
      const base = this.profile.urls[name];
      if (!base) throw new ConformanceFailure({ message: `The profile has no ${name} URL.` });
      client = new InterfaceClient(name, base, this.profile, this.recorder, limiterForWorker!);
      this.clients.set(name, client);
    }
    return client;
  }

  /** Control plane client. */
  get cp(): InterfaceClient {
    return this.client('control-plane');
  }
  /** Agent server client. */
  get as(): InterfaceClient {
    return this.client('agent-server');
  }
  /** Experiment upload (tracing) client. */
  get tracing(): InterfaceClient {
    return this.client('experiment-upload');
  }

  /** A unique name carrying the run's prefix: only such resources are created and cleaned up. */
  name(hint = 'r'): string {
    nameCounter += 1;
    const suffix = `${process.pid.toString(36)}${nameCounter.toString(36)}`;
    return `${this.run.runId}-${hint}-${suffix}`.toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 60);
  }

  /** Registers a deletion to run when the test ends (unless the run keeps its resources). */
  cleanup(label: string, run: () => Promise<unknown>): void {
    this.cleanups.push({ label, run });
  }

  fail(spec: FailureSpec): never {
    throw new ConformanceFailure(spec);
  }

  expect(condition: unknown, spec: FailureSpec): asserts condition {
    if (!condition) this.fail(spec);
  }

  /** The exchange got a response with one of the given statuses. */
  expectStatus(exchange: Exchange, expected: number | number[], spec: Partial<FailureSpec> = {}): void {
    const allowed = Array.isArray(expected) ? expected : [expected];
    const status = exchange.response?.status;
    if (status !== undefined && allowed.includes(status)) return;
    const what = `${exchange.request.method} ${new URL(exchange.request.url).pathname}`;
    this.fail({
      message: spec.message ?? `${what} answered ${status ?? 'nothing'}; expected ${allowed.join(' or ')}.`,
      expected: spec.expected ?? `HTTP ${allowed.join(' or ')}`,
      seen: spec.seen ?? describeResponse(exchange),
      ...(spec.requirement ? { requirement: spec.requirement } : {}),
    });
  }

  /** The value (or the exchange's JSON body) matches the named schema. */
  expectSchema(subject: Exchange | unknown, schema: SchemaName, spec: Partial<FailureSpec> = {}): void {
    const isExchange = typeof subject === 'object' && subject !== null && 'request' in subject && 'startedAt' in subject;
    const value = isExchange ? (subject as Exchange).response?.json : subject;
    const result = validate(schema, value);
    if (result.ok) return;
    const issues = result.issues.map((i) => `${i.loc.join('.') || '(root)'}: ${i.msg}`).join('; ');
    this.fail({
      message: spec.message ?? `Body does not match ${schema}: ${issues}`,
      expected: spec.expected ?? `a ${schema} (spec section 2)`,
      seen: spec.seen ?? (isExchange ? describeResponse(subject as Exchange) : describeValue(value)),
      ...(spec.requirement ? { requirement: spec.requirement } : {}),
    });
  }

  /** Calls `probe` until `done` holds, every poll interval, up to a deadline. */
  async poll<T>(probe: () => Promise<T>, done: (value: T) => boolean, options: PollOptions): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.profile.timeouts.deployMs;
    const intervalMs = options.intervalMs ?? this.profile.pollIntervalMs;
    const deadline = Date.now() + timeoutMs;
    let last: T;
    for (;;) {
      last = await probe();
      if (done(last)) return last;
      if (Date.now() + intervalMs > deadline) {
        this.fail({
          message: `Timed out after ${timeoutMs} ms waiting for ${options.what}.`,
          expected: options.what,
          seen: describeValue(last),
        });
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }

  /** Opens an event stream and reads it to its end, or to the profile's stream deadline. */
  async stream(
    client: InterfaceClient,
    options: RequestOptions,
    onEvent?: (event: SseEvent) => boolean | void,
  ): Promise<SseResult | Exchange> {
    const opened: StreamHandle | Exchange = await client.openStream(options);
    if (!('body' in opened)) return opened;
    if (opened.exchange.response && opened.exchange.response.status >= 400) {
      // An error answer is an ordinary body: read it whole (bounded) for the report.
      return readSse(opened, { timeoutMs: this.profile.timeouts.requestMs }).then((r) => {
        const text = r.exchange.response!.text;
        try {
          r.exchange.response!.json = JSON.parse(text);
        } catch {
          /* not JSON: the text is kept */
        }
        return r.exchange;
      });
    }
    return readSse(opened, { timeoutMs: this.profile.timeouts.streamMs, ...(onEvent ? { onEvent } : {}) });
  }

  /**
   * Runs a fast-check property against the target with a seed derived from the run's seed, so
   * `apc certify --seed S --requirements ID` replays it. On failure the shrunk case is run once
   * more to record its exchanges, and the failure keeps the input, seed and path.
   */
  async property<T>(arbitrary: fc.Arbitrary<T>, predicate: (input: T) => Promise<void>, options: PropertyOptions<T> = {}): Promise<void> {
    this.propertyIndex += 1;
    const seed = (this.testSeed + this.propertyIndex * 7919) | 0;
    const check = async (input: T) => {
      if (options.stillClassified) fc.pre(options.stillClassified(input));
      await predicate(input);
    };
    const details = await fc.check(fc.asyncProperty(arbitrary, check), {
      seed,
      numRuns: options.numRuns ?? this.profile.runs,
      // Time is measured by the HTTP client's own deadlines; a property never waits forever.
      interruptAfterTimeLimit: Math.max(this.profile.timeouts.requestMs * 20, 120_000),
      markInterruptAsFailure: false,
    });
    if (!details.failed || details.counterexample === null) return;
    const input = details.counterexample[0] as T;
    const mark = this.recorder.mark();
    let cause: unknown = details.errorInstance;
    try {
      await check(input);
    } catch (replayed) {
      cause = replayed;
    }
    this.propertyFailure = { input, seed: details.seed, path: details.counterexamplePath ?? undefined, exchanges: this.recorder.since(mark), cause };
    throw cause instanceof Error ? cause : new Error(String(cause));
  }
}
