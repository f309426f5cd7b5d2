// The context a conformance test gets: clients bound to the target, recorded exchanges,
// run-scoped names, cleanup, polling, property runs, and checks that fail with what was
// expected and what was seen.
import { ModelMismatch } from '../../generators/model-mismatch.ts';
import fc from 'fast-check';
import { validate, type SchemaName } from '../../schemas/index.ts';
import { InterfaceClient, Recorder, type RequestOptions, type StreamHandle } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { describeResponse } from '../http/curl.ts';
import { shareBreakersThrough } from '../http/circuit-breaker.ts';
import { Limiter } from '../http/limiter.ts';
import { TargetKeptRefusing } from '../http/throttling.ts';
import type { InterfaceName, TargetProfile } from '../profile/profile.ts';
import { readSse, type SseEvent, type SseResult } from '../sse/reader.ts';
import { ConformanceFailure, describeValue, NotJudged, WaitTimedOut, type FailureSpec } from './failure.ts';
import type { RunContext } from './run-context.ts';
import type { Cleanup } from './cleanups.ts';
import { attributed } from './attribution.ts';

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
  /** Time for all cases; by default 20 request deadlines, at least 2 minutes. */
  timeLimitMs?: number;
  /**
   * Run the cases side by side first (each waits for revisions, minutes on a real platform); only
   * when one fails do they run again one by one, for fast-check to shrink the counterexample.
   */
  sideBySide?: boolean;
}

export interface PollOptions {
  what: string;
  /** The requirement a timeout fails (default: every requirement of the test). */
  requirement?: string;
  timeoutMs?: number;
  intervalMs?: number;
}

/** How often checks of one requirement ran in a test, and how many held. */
export interface CheckTally {
  ran: number;
  held: number;
}

/** One property of a test: the cases it ran, of the cases it planned and of the `--runs` asked. */
export interface PropertyTally {
  ran: number;
  planned: number;
  asked: number;
  /** With `--seeds N` (N > 1): the seeds run, and the indexes (0 = the run's own) that found a counterexample. */
  seeds?: { ran: number; caught: number[] };
}

/** A precondition of a test: what it needs, and the requirement whose rule it relies on. */
export type NeedSpec = FailureSpec & { requirement: string };

/**
 * A failure spec on one exchange: `seen` defaults to what the exchange answered, and a refusal
 * requirements/attribution.yaml maps names the rule it breaks (conformance/attribution.ts).
 */
function seenOn<S extends FailureSpec>(exchange: Exchange, spec: S): S {
  return attributed(exchange, 'seen' in spec ? spec : { ...spec, seen: describeResponse(exchange) });
}

/** A check on a result set (expectOnSet): the rules that make the set, and how many items of it the test made. */
export type SetSpec = FailureSpec & { basis: string[]; made: number };

/** Each run's limiter in this worker (a worker may run several runs' files: run-of-file.ts). */
const limiters = new Map<string, Limiter>();
function limiterOf(run: RunContext): Limiter {
  let limiter = limiters.get(run.runId);
  if (!limiter) {
    limiter = new Limiter(run.workerConcurrency, run.workerMaxRps, run.adaptiveRps);
    limiters.set(run.runId, limiter);
  }
  return limiter;
}
let nameCounter = 0;

export class Check {
  readonly profile: TargetProfile;
  readonly recorder = new Recorder();
  readonly cleanups: Cleanup[] = [];
  propertyFailure: PropertyFailure | undefined;
  /** Requirement id → checks of it that ran in this test. Only checks count: a step never does. */
  readonly tallies = new Map<string, CheckTally>();
  readonly properties: PropertyTally[] = [];
  /** Set once a request stayed throttled or unavailable: nothing the test does after it can be judged. */
  gaveUp: TargetKeptRefusing | undefined;
  /** The test ended in a failure (set before its cleanups run, which may drop what it touched). */
  failed = false;
  /** Set once a wait passed the deploy timeout (`timedOut`): a property runs no further case and shrinks nothing. */
  waitedOut: WaitTimedOut | undefined;
  /** Checks made with `observe` that did not hold: the test fails with them when its body ends. */
  readonly observed: FailureSpec[] = [];
  private readonly clients = new Map<InterfaceName, InterfaceClient>();
  private propertyIndex = 0;

  constructor(
    readonly run: RunContext,
    /** Seed base of this test: the run seed mixed with the test's title. */
    readonly testSeed: number,
    /** The requirements this test judges; a check that names none judges all of them. */
    readonly ids: readonly string[] = [],
    /** When the test's deadline passes (epoch ms): waits (a throttling target, a busy deployment) stop before it. */
    readonly deadlineAt?: number,
  ) {
    this.profile = run.profile;
    shareBreakersThrough(run.stateDir);
  }

  private client(name: InterfaceName): InterfaceClient {
    let client = this.clients.get(name);
    if (!client) {
      const base = this.profile.urls[name];
      if (!base) throw new ConformanceFailure({ message: `The profile has no ${name} URL.` });
      client = new InterfaceClient(name, base, this.profile, this.recorder, limiterOf(this.run), {
        throwWhenRefused: true,
        ...(this.deadlineAt !== undefined ? { giveUpAt: this.deadlineAt } : {}),
      });
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
  /** Experiment upload client. */
  get eu(): InterfaceClient {
    return this.client('experiment-upload');
  }

  /** A unique name carrying the run's prefix: only such resources are created and cleaned up. */
  name(hint = 'r'): string {
    nameCounter += 1;
    const suffix = `${process.pid.toString(36)}${nameCounter.toString(36)}`;
    return `${this.run.runId}-${hint}-${suffix}`.toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 60);
  }

  /**
   * Registers a deletion to run when the test ends (unless the run keeps its resources); one that
   * is `alongside` may run beside its neighbours (harness/conformance/cleanups.ts).
   */
  cleanup(label: string, run: () => Promise<unknown>, options: { alongside?: boolean } = {}): void {
    this.cleanups.push({ label, run, ...options });
  }

  /** Fails the test now. The failure names `spec.requirement`, or every requirement of the test. */
  fail(spec: FailureSpec): never {
    this.tally(spec.requirement, false);
    throw new ConformanceFailure(spec);
  }

  /**
   * A check: judges `spec.requirement` (or every requirement of the test) and counts for it. A
   * requirement passes only when at least one check of it ran and held and none failed.
   */
  expect(condition: unknown, spec: FailureSpec): asserts condition {
    if (!condition) this.fail(spec);
    this.tally(spec.requirement, true);
  }

  /**
   * A precondition, not a check: the test needs it to go on but does not judge it. It counts for
   * nothing when it holds. When it does not, the failure names the requirement whose rule it
   * relies on (for example CP-CREATE-001 for "a valid create is accepted"), so the test's own
   * requirements are reported blocked by that one, not failed.
   */
  need(condition: unknown, spec: NeedSpec): asserts condition {
    if (!condition) throw new ConformanceFailure(spec);
  }

  /**
   * A check that does not stop the test: when it does not hold, the test goes on and fails with it
   * when its body ends. Should the test stop first at another rule's failure, what it saw is shown
   * beside its blocked requirement as "also seen", not judged.
   */
  observe(condition: unknown, spec: FailureSpec): void {
    this.tally(spec.requirement, Boolean(condition));
    if (!condition) this.observed.push(spec);
  }

  /**
   * A check of a rule about a result set (a limit, an order, a page): `set` is what the listing
   * answered, `made` how many matching items the test made, `basis` the rules that put them in
   * the set (a search's filter). The failure names the basis: when one of those failed in the run,
   * it made the set empty or wrong, and the requirement is blocked by it (report/blocked-roots.ts).
   * An empty set where the test made items is never a pass: nothing was there to judge.
   */
  expectOnSet(set: readonly unknown[], condition: unknown, spec: SetSpec): void {
    const { basis, made, ...rest } = spec;
    const emptied = made > 0 && set.length === 0;
    const message = condition && emptied ? `The result set was empty though the test made ${made} matching item(s): nothing to judge. (${rest.message})` : rest.message;
    this.expect(condition && !emptied, { ...rest, message, reliesOn: basis });
  }

  /** A check on an exchange: `t.expect`, with what the exchange answered as `seen` unless the spec says otherwise. */
  expectOn(exchange: Exchange, condition: unknown, spec: FailureSpec): asserts condition {
    this.expect(condition, condition ? spec : seenOn(exchange, spec));
  }

  /** A precondition on an exchange: `t.need`, with what the exchange answered as `seen` unless the spec says otherwise. */
  needOn(exchange: Exchange, condition: unknown, spec: NeedSpec): asserts condition {
    this.need(condition, condition ? spec : seenOn(exchange, spec));
  }

  /** Fails the test now, with what the exchange answered as `seen` unless the spec says otherwise. */
  failOn(exchange: Exchange, spec: FailureSpec): never {
    return this.fail(seenOn(exchange, spec));
  }

  /**
   * Runs a command sequence (`fc.asyncModelRun` and the like) against the pure model. A sequence
   * that agrees is a check of every requirement of the test; a ModelMismatch
   * fails the rule it names, with `foundBy` saying how it was found. `after` runs either way, first.
   */
  async expectModelAgrees(run: () => Promise<unknown>, options: { foundBy?: string; after?: () => Promise<void> } = {}): Promise<void> {
    let mismatch: ModelMismatch | undefined;
    try {
      await run();
    } catch (error) {
      if (!(error instanceof ModelMismatch)) throw error;
      mismatch = error;
    } finally {
      await options.after?.();
    }
    this.expect(mismatch === undefined, {
      ...(mismatch ? { requirement: mismatch.requirement } : {}),
      message: options.foundBy ? `${mismatch?.message} (found by ${options.foundBy})` : (mismatch?.message ?? ''),
      expected: mismatch?.expected,
      seen: mismatch?.seen,
    });
  }

  /** A precondition on an exchange: any 2xx answer. Steps accept every success status. */
  needSuccess(exchange: Exchange, spec: Omit<NeedSpec, 'message'> & { message?: string }): void {
    const status = exchange.response?.status;
    if (status !== undefined && status >= 200 && status < 300) return;
    const what = `${exchange.request.method} ${new URL(exchange.request.url).pathname}`;
    this.need(
      false,
      attributed(exchange, {
        message: spec.message ?? `${what} answered ${status ?? 'nothing'}; this test needs it to succeed (any 2xx).`,
        expected: spec.expected ?? 'HTTP 2xx',
        seen: spec.seen ?? describeResponse(exchange),
        requirement: spec.requirement,
      }),
    );
  }

  /**
   * Ends the test where a wait for the target passed the deploy timeout: as `fail` when the wait
   * was the check (a revision that must end), as `need` when it was a step (the test is then
   * blocked by `spec.requirement`). A property stops at it: each further case, and each shrink,
   * would wait the whole timeout again, so one stuck target would hold the run for many timeouts.
   */
  timedOut(spec: FailureSpec, as: 'check' | 'step'): never {
    if (as === 'check') this.tally(spec.requirement, false);
    throw (this.waitedOut ??= new WaitTimedOut(spec));
  }

  /** Ends the test without a verdict: the target lacks a capability the check needs. */
  notApplicable(capability: string, why: string): never {
    throw new NotJudged('not-applicable', why, capability);
  }

  /** Ends the test without a verdict for a reason other than a missing capability. */
  skip(why: string): never {
    throw new NotJudged('skipped', why);
  }

  private tally(requirement: string | undefined, held: boolean): void {
    for (const id of requirement ? [requirement] : this.ids) {
      const tally = this.tallies.get(id) ?? { ran: 0, held: 0 };
      tally.ran += 1;
      if (held) tally.held += 1;
      this.tallies.set(id, tally);
    }
  }

  /** Counts a check of `requirement` (or of every requirement of the test); fails with `spec()` when it did not hold. */
  private judge(held: boolean, requirement: string | undefined, spec: () => FailureSpec): void {
    if (!held) this.fail({ ...spec(), ...(requirement ? { requirement } : {}) });
    this.tally(requirement, true);
  }

  /** The exchange got a response with one of the given statuses. */
  expectStatus(exchange: Exchange, expected: number | number[], spec: Partial<FailureSpec> = {}): void {
    const allowed = Array.isArray(expected) ? expected : [expected];
    const status = exchange.response?.status;
    this.judge(status !== undefined && allowed.includes(status), spec.requirement, () => ({
      message: spec.message ?? `${exchange.request.method} ${new URL(exchange.request.url).pathname} answered ${status ?? 'nothing'}; expected ${allowed.join(' or ')}.`,
      expected: spec.expected ?? `HTTP ${allowed.join(' or ')}`,
      seen: spec.seen ?? describeResponse(exchange),
    }));
  }

  /** The value (or the exchange's JSON body) matches the named schema. */
  expectSchema(subject: Exchange | unknown, schema: SchemaName, spec: Partial<FailureSpec> = {}): void {
    const isExchange = typeof subject === 'object' && subject !== null && 'request' in subject && 'startedAt' in subject;
    const value = isExchange ? (subject as Exchange).response?.json : subject;
    const result = validate(schema, value);
    this.judge(result.ok, spec.requirement, () => ({
      message: spec.message ?? `Body does not match ${schema}: ${result.ok ? '' : result.issues.map((i) => `${i.loc.join('.') || '(root)'}: ${i.msg}`).join('; ')}`,
      expected: spec.expected ?? `a ${schema} (spec section 2)`,
      seen: spec.seen ?? (isExchange ? describeResponse(subject as Exchange) : describeValue(value)),
    }));
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
          ...(options.requirement ? { requirement: options.requirement } : {}),
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
   * more to record its exchanges, and the failure keeps the input, seed and path. A property
   * passes only when it ran every case it planned: all cases discarded, a time limit reached
   * before the last case, or a failure without a counterexample fail the test as "not verified".
   */
  async property<T>(arbitrary: fc.Arbitrary<T>, predicate: (input: T) => Promise<void>, options: PropertyOptions<T> = {}): Promise<void> {
    this.propertyIndex += 1;
    const seed = (this.testSeed + this.propertyIndex * 7919) | 0;
    const planned = options.numRuns ?? this.profile.runs;
    const mark = this.recorder.mark();
    let waitedOutOn: { input: T } | undefined;
    const check = async (input: T) => {
      // After a request stayed refused, or a wait passed the deploy timeout, shrinking and replaying would only meet the same wall: every case ends at once.
      if (this.gaveUp) throw this.gaveUp;
      if (this.waitedOut) throw this.waitedOut;
      if (options.stillClassified) fc.pre(options.stillClassified(input));
      try {
        await predicate(input);
      } catch (error) {
        if (error instanceof TargetKeptRefusing) this.gaveUp = error;
        if (error instanceof WaitTimedOut) waitedOutOn ??= { input };
        // A disagreement with a pure model (a command sequence) fails the rule it names: a failure, not a crash.
        if (error instanceof ModelMismatch) this.fail({ requirement: error.requirement, message: error.message, expected: error.expected, seen: error.seen });
        throw error;
      }
    };
    const limitMs = options.timeLimitMs ?? Math.max(this.profile.timeouts.requestMs * 20, 120_000);
    if (this.profile.seeds > 1 && this.run.ownSeedJudged) return this.otherSeedsOnly(seed, planned, limitMs, fc.asyncProperty(arbitrary, check), check);
    if (options.sideBySide) {
      const sideBySide = await this.sideBySide(arbitrary, check, seed, planned);
      if (sideBySide.held) return;
      // A case waited out the deploy timeout: no case runs again. Another case's own failure is the finding, if there is one.
      if (waitedOutOn) return this.stopAtTimeout(sideBySide.failed ?? waitedOutOn, seed, mark, sideBySide.ran, planned);
    }
    // Shrinking has a time and a count of its own: against a target that fails at random (or
    // answers slowly) it could spend the property's whole time limit, and on a real platform each
    // try of a create property is a deployment (a failing one once made 200 in 20 s). Past either,
    // the remaining shrink candidates are not run (taken as holding), so the smallest case found
    // so far, which did fail, is reported; a failing property tries at most twice its cases.
    const shrinkMs = Math.max(this.profile.timeouts.requestMs * 2, 20_000);
    let firstFailedAt: number | undefined;
    let shrinkTries = 0;
    const shrinkingCapped = async (input: T) => {
      if (firstFailedAt !== undefined && (Date.now() - firstFailedAt > shrinkMs || ++shrinkTries > planned)) return;
      try {
        await check(input);
      } catch (error) {
        if (!fc.PreconditionFailure.isFailure(error)) firstFailedAt ??= Date.now();
        throw error;
      }
    };
    const details = await fc.check(fc.asyncProperty(arbitrary, shrinkingCapped), {
      seed,
      numRuns: planned,
      // Time is measured by the HTTP client's own deadlines; a property never waits forever.
      interruptAfterTimeLimit: limitMs,
      markInterruptAsFailure: false,
    });
    if (waitedOutOn) return this.stopAtTimeout(waitedOutOn, seed, mark, details.numRuns, planned);
    const found = details.failed && details.counterexample !== null;
    const others = await this.otherSeeds(seed, planned, limitMs, fc.asyncProperty(arbitrary, check));
    this.properties.push({
      ran: details.numRuns,
      planned,
      asked: this.profile.runs,
      ...(others ? { seeds: { ran: this.profile.seeds, caught: [...(found ? [0] : []), ...others.map((o) => o.index)] } } : {}),
    });
    if (found) return this.replayCounterexample(details.counterexample![0] as T, details, check);
    // Another seed found what the run's own did not: it fails the property, unshrunk.
    const other = others?.[0]?.details;
    if (other) return this.replayCounterexample(other.counterexample![0] as T, other, check);
    const notVerified = (why: string): never =>
      this.fail({
        message: `Not verified: ${why}`,
        expected: `${planned} generated case(s) run and held`,
        seen: `${details.numRuns} case(s) ran, ${details.numSkips} discarded${details.interrupted ? ', interrupted' : ''}`,
      });
    if (details.failed) notVerified(details.interrupted ? `the property was interrupted after ${details.numRuns} of ${planned} case(s).` : `too many generated cases were discarded (${details.numSkips}) to run ${planned}.`);
    if (details.interrupted && details.numRuns < planned) {
      notVerified(`the property reached its time limit of ${limitMs} ms after ${details.numRuns} of ${planned} case(s).`);
    }
    if (details.numRuns === 0) notVerified(`every generated case was discarded (${details.numSkips}): none was run against the target.`);
  }

  /**
   * The cases fast-check draws for `seed`, run at once. `held` when every case that was not
   * discarded held (and some ran): the property is judged. Otherwise the caller runs them again
   * one by one, so a failure is shrunk and reported as usual; `failed` is the first case that
   * failed other than by a wait's timeout, for when shrinking is not possible.
   */
  private async sideBySide<T>(arbitrary: fc.Arbitrary<T>, check: (input: T) => Promise<void>, seed: number, planned: number) {
    if (this.profile.seeds > 1) return { held: false, ran: 0 };
    const cases = fc.sample(arbitrary, { seed, numRuns: planned });
    const settled = await Promise.allSettled(cases.map((input) => check(input)));
    const ran = settled.filter((s) => s.status === 'fulfilled' || !fc.PreconditionFailure.isFailure(s.reason)).length;
    const failedAt = settled.findIndex((s) => s.status === 'rejected' && !fc.PreconditionFailure.isFailure(s.reason) && !(s.reason instanceof WaitTimedOut));
    const failed = failedAt < 0 ? undefined : { input: cases[failedAt]!, error: (settled[failedAt] as PromiseRejectedResult).reason };
    if (ran === 0 || settled.some((s) => s.status === 'rejected' && !fc.PreconditionFailure.isFailure(s.reason))) return { held: false, ran, failed };
    this.properties.push({ ran, planned, asked: this.profile.runs });
    return { held: true, ran };
  }

  /**
   * A case whose wait passed the deploy timeout fails the property (or blocks it) as it was drawn,
   * unshrunk, with the exchanges of the property so far: the timeout, not the input, is the finding.
   */
  private stopAtTimeout<T>(found: { input: T; error?: unknown }, seed: number, mark: number, ran: number, planned: number): never {
    const cause = found.error ?? this.waitedOut;
    this.properties.push({ ran, planned, asked: this.profile.runs });
    this.propertyFailure = { input: found.input, seed, path: undefined, exchanges: this.recorder.since(mark), cause };
    throw cause instanceof Error ? cause : new Error(String(cause));
  }

  /**
   * `--seeds N`: the property again under N-1 further seeds, each stopping at its first
   * counterexample without shrinking. It measures how reliably a deviation is found (apc selftest's
   * detection rate), and any counterexample found still fails the property.
   */
  private async otherSeeds<T>(seed: number, planned: number, limitMs: number, property: fc.IAsyncProperty<[T]>) {
    if (this.profile.seeds <= 1) return undefined;
    const caught: { index: number; details: fc.RunDetails<[T]> }[] = [];
    for (let index = 1; index < this.profile.seeds; index++) {
      const details = await fc.check(property, {
        seed: (seed + index * 104_729) | 0,
        numRuns: planned,
        endOnFailure: true,
        interruptAfterTimeLimit: limitMs,
        markInterruptAsFailure: false,
      });
      if (details.failed && details.counterexample !== null) caught.push({ index, details });
    }
    return caught;
  }

  /** `--seeds N` where the run's own seed was judged before (RunContext.ownSeedJudged): the N-1 others, a counterexample of any failing the property. */
  private async otherSeedsOnly<T>(seed: number, planned: number, limitMs: number, property: fc.IAsyncProperty<[T]>, check: (input: T) => Promise<void>): Promise<void> {
    const others = (await this.otherSeeds(seed, planned, limitMs, property))!;
    this.properties.push({ ran: planned, planned, asked: this.profile.runs, seeds: { ran: this.profile.seeds, caught: others.map((o) => o.index) } });
    const other = others[0]?.details;
    if (other) return this.replayCounterexample(other.counterexample![0] as T, other, check);
  }

  private async replayCounterexample<T>(input: T, details: fc.RunDetails<[T]>, check: (input: T) => Promise<void>): Promise<never> {
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
