// The third part of a test's Check (check.ts): properties. A fast-check property runs against
// the target with a seed derived from the run's, so a failure replays with `--seed`; its shrunk
// counterexample is run once more to record its exchanges; it passes only when it ran every case
// it planned. `--seeds N` runs it under further seeds to measure how reliably it finds a fault.
import { ModelMismatch } from '../../generators/model-mismatch.ts';
import fc from 'fast-check';
import type { Exchange } from '../http/exchange.ts';
import { TargetKeptRefusing } from '../http/throttling.ts';
import { CheckJudging } from './check-judging.ts';
import { safeString, WaitTimedOut } from './failure.ts';

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

/** One property of a test: the cases it ran, of the cases it planned and of the `--runs` asked. */
export interface PropertyTally {
  ran: number;
  planned: number;
  asked: number;
  /** With `--seeds N` (N > 1): the seeds run, and the indexes (0 = the run's own) that found a counterexample. */
  seeds?: { ran: number; caught: number[] };
}

export class CheckProperties extends CheckJudging {
  propertyFailure: PropertyFailure | undefined;
  readonly properties: PropertyTally[] = [];
  private propertyIndex = 0;

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
    let failedSideBySide: { input: T; error: unknown } | undefined;
    if (options.sideBySide) {
      const sideBySide = await this.sideBySide(arbitrary, check, seed, planned);
      if (sideBySide.held) return;
      // A case waited out the deploy timeout: no case runs again. Another case's own failure is the finding, if there is one.
      if (waitedOutOn) return this.stopAtTimeout(sideBySide.failed ?? waitedOutOn, seed, mark, sideBySide.ran, planned);
      failedSideBySide = sideBySide.failed;
    }
    const details = await fc.check(fc.asyncProperty(arbitrary, this.shrinkingCapped(check, planned)), {
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
    // A case that failed side by side and held one by one stands, as drawn: running a case again is
    // not running it afresh (a create refused for its body the first time may be refused the second
    // time only for the name the first one took).
    if (failedSideBySide) return this.stopAtTimeout(failedSideBySide, seed, mark, details.numRuns, planned);
    // Another seed found what the run's own did not: it fails the property, unshrunk.
    const other = others?.[0]?.details;
    if (other) return this.replayCounterexample(other.counterexample![0] as T, other, check);
    this.failUnlessAllRan(details, planned, limitMs);
  }

  /**
   * The property's check with shrinking capped. Shrinking has a time and a count of its own:
   * against a target that fails at random (or answers slowly) it could spend the property's whole
   * time limit, and on a real platform each try of a create property is a deployment (a failing
   * one once made 200 in 20 s). Past either, the remaining shrink candidates are not run (taken as
   * holding), so the smallest case found so far, which did fail, is reported; a failing property
   * tries at most twice its cases.
   */
  private shrinkingCapped<T>(check: (input: T) => Promise<void>, planned: number): (input: T) => Promise<void> {
    const shrinkMs = Math.max(this.profile.timeouts.requestMs * 2, 20_000);
    let firstFailedAt: number | undefined;
    let shrinkTries = 0;
    return async (input: T) => {
      if (firstFailedAt !== undefined && (Date.now() - firstFailedAt > shrinkMs || ++shrinkTries > planned)) return;
      try {
        await check(input);
      } catch (error) {
        if (!fc.PreconditionFailure.isFailure(error)) firstFailedAt ??= Date.now();
        throw error;
      }
    };
  }

  /** Fails the test as "not verified" unless the property ran every case it planned (none failed: that was judged before). */
  private failUnlessAllRan(details: Pick<fc.RunDetails<unknown>, 'failed' | 'interrupted' | 'numRuns' | 'numSkips'>, planned: number, limitMs: number): void {
    const notVerified = (why: string): never =>
      this.fail({
        message: `Not verified: ${why}`,
        expected: `${planned} generated case(s) run and held`,
        seen: `${details.numRuns} case(s) ran, ${details.numSkips} discarded${details.interrupted ? ', interrupted' : ''}`,
      });
    if (details.failed)
      notVerified(
        details.interrupted
          ? `the property was interrupted after ${details.numRuns} of ${planned} case(s).`
          : `too many generated cases were discarded (${details.numSkips}) to run ${planned}.`,
      );
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
   * So does a case that failed side by side and not again one by one.
   */
  private stopAtTimeout<T>(found: { input: T; error?: unknown }, seed: number, mark: number, ran: number, planned: number): never {
    const cause = found.error ?? this.waitedOut;
    this.properties.push({ ran, planned, asked: this.profile.runs });
    this.propertyFailure = { input: found.input, seed, path: undefined, exchanges: this.recorder.since(mark), cause };
    throw cause instanceof Error ? cause : new Error(safeString(cause));
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
  private async otherSeedsOnly<T>(
    seed: number,
    planned: number,
    limitMs: number,
    property: fc.IAsyncProperty<[T]>,
    check: (input: T) => Promise<void>,
  ): Promise<void> {
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
    throw cause instanceof Error ? cause : new Error(safeString(cause));
  }
}
