// The run's budget as a hard limit: what the run has spent of it, held by the certifying process
// for every suite worker (broker.ts serves it). A request that may create a
// deployment or a revision first reserves what it could create at most; once it is answered the
// reservation is settled to what it did create. A reservation that would pass the budget waits
// while others are in flight (they may create nothing: most probes are refusals), and is refused
// once what was created leaves no room. So the run never creates more than its budget, whichever
// test asks, in whichever order, whatever the tests planned: a failing test that drops its pooled
// deployment cannot buy another beyond it.
import type { Budget } from '../profile/profile.ts';

/** What the budget limits. */
export const BUDGET_KINDS = ['deployments', 'revisions'] as const;
export type Spend = Partial<Record<(typeof BUDGET_KINDS)[number], number>>;

/** `granted`: reserved; `wait`: it fits only if requests in flight create less than they reserved; `spent`: it cannot fit. */
export type Reservation = 'granted' | 'wait' | 'spent';

export class BudgetLedger {
  /** What the run's requests created. */
  readonly created: Required<Spend> = { deployments: 0, revisions: 0 };
  /** What requests in flight reserved. */
  readonly inFlight: Required<Spend> = { deployments: 0, revisions: 0 };

  constructor(readonly budget: Budget) {}

  private fits(want: Spend, withInFlight: boolean): boolean {
    return BUDGET_KINDS.every((k) => this.created[k] + (withInFlight ? this.inFlight[k] : 0) + (want[k] ?? 0) <= (this.budget[k] ?? Infinity));
  }

  reserve(want: Spend): Reservation {
    if (!this.fits(want, false)) return 'spent';
    if (!this.fits(want, true)) return 'wait';
    for (const k of BUDGET_KINDS) this.inFlight[k] += want[k] ?? 0;
    return 'granted';
  }

  /** A reserved request was answered: its reservation becomes what it did create. */
  settle(reserved: Spend, created: Spend): void {
    for (const k of BUDGET_KINDS) {
      this.inFlight[k] = Math.max(0, this.inFlight[k] - (reserved[k] ?? 0));
      this.created[k] += created[k] ?? 0;
    }
  }
}
