// The budget of a run that probes its target before its tests (by URL without a profile, as
// `apc init` does: harness/discovery/within-budget.ts). The probes spend the run's budget like any
// test: what they created is settled into the run's ledger first (execute.ts) and counted in the
// report's "created", and the tests are planned within what they left. So that this does not
// leave the tests less than a URL target's default, a run that probes and names no budget gets
// the probes' worst case (PROBE_BUDGET) on top of it; a budget given is the whole run's.
import { addCreated, budgetText, createdText, type Created } from '../conformance/created.ts';
import type { ComplianceReport } from '../report/compliance.ts';
import { PROBE_BUDGET, REMOTE_BUDGET, type Budget } from '../profile/profile.ts';

/** The default budget of a target given by URL, and when the run probes it, the line that says how it is made. */
export function defaultUrlBudget(probes: boolean): { budget: Budget; line?: string } {
  if (!probes) return { budget: { ...REMOTE_BUDGET } };
  const budget = { deployments: REMOTE_BUDGET.deployments! + PROBE_BUDGET.deployments, revisions: REMOTE_BUDGET.revisions! + PROBE_BUDGET.revisions };
  return {
    budget,
    line: `budget ${createdText(budget)}: the default for a URL (${createdText(REMOTE_BUDGET)}) and ${createdText(PROBE_BUDGET)} for probing the target without a profile`,
  };
}

/** What a run's probes may create at most, and how its default budget made room for them (defaultUrlBudget's line). */
export interface Probes {
  budget: Budget;
  line?: string;
}

/** What `--plan` says of the probes a run without a profile sends before its tests (it sends none of them). */
export function probePlanLines(whole: Budget, probes: Probes): string[] {
  return [
    ...(probes.line ? [probes.line] : []),
    `probing the target without a profile may create up to ${createdText(probes.budget)} of it before the tests (--plan sends no such probe): the tests are planned within ${budgetText(budgetLeft(whole, probes.budget))}`,
  ];
}

/** What `budget` leaves once `spent` is taken off it, kind by kind (a kind it does not limit stays unlimited). */
export function budgetLeft(budget: Budget, spent: Created | undefined): Budget {
  const left = (kind: 'deployments' | 'revisions') => (budget[kind] === undefined ? {} : { [kind]: Math.max(0, budget[kind] - (spent?.[kind] ?? 0)) });
  return { ...left('deployments'), ...left('revisions') };
}

/**
 * What the run created before its tests start, which its tests may not spend again: its probes,
 * and when it resumes an interrupted run, what that run's earlier part created (its report's
 * control-plane "created"; deleted at the interrupt, but paid for). The resumed run is the same
 * run, under the same budget, and its report adds both parts' "created".
 */
export function spentBefore(probed: Created | undefined, resumed: ComplianceReport | undefined): Created {
  return addCreated(addCreated({}, probed ?? {}), resumed?.cost?.created['control-plane'] ?? {});
}
