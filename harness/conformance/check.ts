// The context a conformance test gets, `t`: one Check per test, made of parts that build on one
// another: the target's clients and recorded exchanges (check-exchanges.ts), the checks that judge
// (check-judging.ts), properties (check-properties.ts), and here what the test leaves to do when
// it ends (its cleanups; test-run.ts runs them), and what the budget's room hands it (`needs`).
import { Needs } from '../budget/needs.ts';
import { CheckProperties } from './check-properties.ts';
import type { Cleanup } from './cleanups.ts';

export type { CheckTally, NeedSpec, PollOptions } from './check-judging.ts';
export type { PropertyFailure, PropertyOptions, PropertyTally } from './check-properties.ts';

export class Check extends CheckProperties {
  readonly cleanups: Cleanup[] = [];
  /** What the test needs of the target, made for it or handed over by the run (harness/budget/needs.ts). */
  readonly needs = new Needs(this.run);

  /**
   * Registers a deletion to run when the test ends (unless the run keeps its resources); one that
   * is `alongside` may run beside its neighbours (harness/conformance/cleanups.ts).
   */
  cleanup(label: string, run: () => Promise<unknown>, options: { alongside?: boolean } = {}): void {
    this.cleanups.push({ label, run, ...options });
  }
}
