// What a test needs of the target, as its Check hands it over (`t.needs`). A test says what it
// needs ("a deployment of kind X", "a deployment deleted for me") and how to make one; the room
// decides whether it is made for this test alone or is the run's, handed to one test at a time.
// Without a budget each test makes its own, so their revision waits overlap. Under a budget a
// thing that serves many rules is made once per run, by whichever test needs it first, and handed
// to every later test that declared it in its cost (`shared`), whichever ran first: the leases
// (leases.ts) keep the handing one at a time across suite workers (where the budget has room, a
// kind's tests are spread over several copies of it, spread.ts), and the budget's ledger
// (ledger.ts, asked by guard.ts before each create or PATCH) keeps the run within its limit.
// What the run makes carries the run's name prefix; the run deletes it at its end (also after an
// interrupt, harness/run/leftovers.ts), and `apc cleanup` finds any left.
import { budgeted, type TargetProfile } from '../profile/profile.ts';
import type { RunContext } from '../conformance/run-context.ts';
import { leaseOf, releaseLeases, takeLeases, type Leases } from './leases.ts';

/** Who owns what a test is handed: the test (deleted when it ends) or the run (deleted when the run ends, handed to later tests). */
export type Owner = 'test' | 'run';

/** What the room handed over, and whose it is. */
export interface Handed<T> {
  value: T;
  owner: Owner;
}

export interface OneOptions<T> {
  /** Whether a made value is worth handing to later tests (a refused create is not); default: all. */
  keep?: (value: T) => boolean;
  /** Whether a value an earlier test made is still of use to this one; default: all. */
  usable?: (value: T) => boolean;
  /** A record of what happened (a deletion) stays the run's even when a test that used it fails. */
  keepWhenFailed?: boolean;
}

/**
 * The value for a run without a limit on what it creates, or for one within such a limit (a
 * budget): how many cases a property runs, how many PATCHes go at once. Cost declarations and
 * the tests they declare ask the same question, so the plan and the test agree.
 */
export const byLimit = <T>(profile: Pick<TargetProfile, 'budget'>, choice: { unlimited: T; limited: T }): T =>
  budgeted(profile) ? choice.limited : choice.unlimited;

export class Needs {
  private leases: Leases = { held: new Map() };

  constructor(private readonly run: RunContext) {}

  /** As the test starts: the leases taken for it before it started (a test whose leases could not be taken is not judged). */
  start(testId: string): void {
    this.leases = takeLeases(this.run, testId);
  }

  /** As the test ends: what it was handed goes back; `failed` drops what it used (it may have left it changed). */
  end(failed: boolean): Promise<void> {
    return releaseLeases(this.run, this.leases, failed);
  }

  /**
   * The thing of kind `kind` this test needs: without a budget made now for this test alone
   * (`make('test')`); under one the run's, made by the first test that needs it
   * (`make('run')`) and handed to every later one that declared `kind` in its cost.
   */
  async one<T>(kind: string, make: (owner: Owner) => Promise<T>, options: OneOptions<T> = {}): Promise<Handed<T>> {
    if (!budgeted(this.run.profile)) return { value: await make('test'), owner: 'test' };
    const lease = leaseOf<T>(this.leases, kind);
    if (options.keepWhenFailed) lease.dropWhenFailed = false;
    if (lease.value !== undefined && (options.usable?.(lease.value) ?? true)) return { value: lease.value, owner: 'run' };
    const value = await make('run');
    if (options.keep?.(value) ?? true) lease.value = value;
    return { value, owner: 'run' };
  }

  /** What `use` hands over where the run shares things among tests (under a budget); nothing where each test makes its own. */
  async ifShared<T>(use: () => Promise<T>): Promise<T | undefined> {
    return budgeted(this.run.profile) ? use() : undefined;
  }
}
