// The second part of a test's Check (check.ts): judging. A check (`expect*`) counts for the
// requirement it names, or for every requirement of the test, and fails with what was expected
// and what was seen; a precondition (`need*`) counts for nothing and blocks the test on the rule
// it relies on; a test that cannot judge ends not applicable or skipped. A requirement passes
// only when a check of it ran and held (harness/report/compliance.ts reads the tallies).
import { ModelMismatch } from '../../generators/model-mismatch.ts';
import { validate, type SchemaName } from '../../schemas/index.ts';
import type { Exchange } from '../http/exchange.ts';
import { describeResponse } from '../http/curl.ts';
import type { TargetKeptRefusing } from '../http/throttling.ts';
import { CheckExchanges } from './check-exchanges.ts';
import { ConformanceFailure, describeValue, NotJudged, WaitTimedOut, type FailureSpec } from './failure.ts';
import { attributed } from './attribution.ts';

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

export class CheckJudging extends CheckExchanges {
  /** Requirement id → checks of it that ran in this test. Only checks count: a step never does. */
  readonly tallies = new Map<string, CheckTally>();
  /** Set once a request stayed throttled or unavailable: nothing the test does after it can be judged. */
  gaveUp: TargetKeptRefusing | undefined;
  /** The test ended in a failure (set before its cleanups run, which may drop what it touched). */
  failed = false;
  /** Set once a wait passed the deploy timeout (`timedOut`): a property runs no further case and shrinks nothing. */
  waitedOut: WaitTimedOut | undefined;
  /** Checks made with `observe` that did not hold: the test fails with them when its body ends. */
  readonly observed: FailureSpec[] = [];
  /** Checks of other rules than the test's own that did not hold (`observeOn`): recorded under those rules. */
  readonly seenAside: { spec: NeedSpec; exchange: Exchange }[] = [];

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
   * A check on an exchange that never stops the test, of whichever rule it names. Of one of the
   * test's own rules it is `observe`. Of another (a failed revision must not be the active one,
   * wherever a wait sees one fail) a failure is recorded under that rule and leaves the test's
   * own verdict alone: one fault, one rule, and the test goes on to judge what it is for.
   */
  observeOn(exchange: Exchange, condition: unknown, spec: NeedSpec): void {
    if (this.ids.includes(spec.requirement)) return this.observe(condition, condition ? spec : seenOn(exchange, spec));
    if (!condition) this.seenAside.push({ spec: seenOn(exchange, spec), exchange });
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
    const message =
      condition && emptied ? `The result set was empty though the test made ${made} matching item(s): nothing to judge. (${rest.message})` : rest.message;
    this.expect(condition && !emptied, { ...rest, message, reliesOn: basis });
  }

  /** A check on an exchange: `t.expect`, with what the exchange answered as `seen` unless the spec says otherwise. */
  expectOn(exchange: Exchange, condition: unknown, spec: FailureSpec): asserts condition {
    this.expect(condition, condition ? spec : seenOn(exchange, spec));
  }

  /**
   * The failure spec of a refused exchange, named for the rule its refusal breaks when
   * requirements/attribution.yaml maps one (for a suite that ends the test with it later).
   */
  attribute<S extends FailureSpec>(exchange: Exchange, spec: S): S {
    return attributed(exchange, spec);
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
   * that agrees is a check of every requirement of the test, or, with `judged`, of the rules its
   * commands said they judged on something there to judge (a rule about a result set is not
   * passed on an empty one); a ModelMismatch fails the rule it names, with `foundBy` saying how it
   * was found. `after` runs either way, first.
   */
  async expectModelAgrees(
    run: () => Promise<unknown>,
    options: { foundBy?: string; after?: () => Promise<void>; judged?: ReadonlySet<string> } = {},
  ): Promise<void> {
    let mismatch: ModelMismatch | undefined;
    // The step that disagreed sent the last request before `after` (which cleans up) sends its own.
    let disagreed: Exchange | undefined;
    try {
      await run();
    } catch (error) {
      if (!(error instanceof ModelMismatch)) throw error;
      mismatch = error;
      disagreed = this.recorder.exchanges.at(-1);
    } finally {
      await options.after?.();
    }
    const spec: FailureSpec = {
      ...(mismatch ? { requirement: mismatch.requirement } : {}),
      message: options.foundBy ? `${mismatch?.message} (found by ${options.foundBy})` : (mismatch?.message ?? ''),
      expected: mismatch?.expected,
      seen: mismatch?.seen,
    };
    // A refusal of the disagreeing step's form (a valid create of one source kind answered 422) is
    // the rule's of that form, as for any step (attribution.yaml).
    if (mismatch || !options.judged) {
      this.expect(mismatch === undefined, mismatch && disagreed ? attributed(disagreed, spec) : spec);
      return;
    }
    for (const id of options.judged) if (this.ids.includes(id)) this.tally(id, true);
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

  protected tally(requirement: string | undefined, held: boolean): void {
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
      message:
        spec.message ??
        `${exchange.request.method} ${new URL(exchange.request.url).pathname} answered ${status ?? 'nothing'}; expected ${allowed.join(' or ')}.`,
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
      message:
        spec.message ?? `Body does not match ${schema}: ${result.ok ? '' : result.issues.map((i) => `${i.loc.join('.') || '(root)'}: ${i.msg}`).join('; ')}`,
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
}
