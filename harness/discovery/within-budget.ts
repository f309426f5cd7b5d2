// Probing a target within a budget, for `apc init` and for `apc certify` by URL without a profile:
// the probes that may create a deployment or a revision ask a ledger of the budget first
// (harness/budget/guard.ts), so a probe the budget cannot cover is not sent and its setting keeps
// its default (the discovery's note says why). What the probes created is counted from their
// exchanges as the report counts a test's (harness/conformance/created.ts): a run settles it into
// its own ledger before any test spends it, and adds it to the report's "created".
import { BudgetLedger } from '../budget/ledger.ts';
import { localBudgetGuard } from '../budget/guard.ts';
import { budgetText, createdBy, createdText, type Created } from '../conformance/created.ts';
import { Recorder } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { budgeted, type TargetProfile } from '../profile/profile.ts';
import type { Discovery } from '../profile/discovered.ts';
import { discover, type DiscoverOptions } from './discovery.ts';

export interface BudgetedDiscovery {
  found: Discovery;
  /** Every exchange the probes had with the target. */
  exchanges: readonly Exchange[];
  /** The deployments and revisions the probes created (the budget limits these). */
  created: Pick<Created, 'deployments' | 'revisions'>;
}

/** Discovers the target; under the profile's budget, the creating probes only as far as it covers them. */
export async function discoverWithinBudget(options: Omit<DiscoverOptions, 'recorder' | 'guard'>): Promise<BudgetedDiscovery> {
  const { profile } = options;
  const recorder = new Recorder();
  const guard = profile.budget && budgeted(profile) ? localBudgetGuard(new BudgetLedger(profile.budget), recorder, profile) : undefined;
  const found = await discover({ ...options, recorder, ...(guard ? { guard } : {}) });
  const all = createdBy(recorder.exchanges, profile);
  return { found, exchanges: recorder.exchanges, created: { deployments: all.deployments ?? 0, revisions: all.revisions ?? 0 } };
}

/** What the probes created, against the budget, and what they deleted again: the bill of probing. */
export function billLine(exchanges: readonly Exchange[], profile: TargetProfile): string {
  const deleted = exchanges.filter(
    (e) => e.interface === 'control-plane' && e.request.method === 'DELETE' && (e.response?.status ?? 0) >= 200 && (e.response?.status ?? 0) < 300,
  );
  const budget = budgeted(profile) ? `budget ${budgetText(profile.budget)}` : 'no budget';
  return `created: ${createdText(createdBy(exchanges, profile))} (${budget}); deleted: ${deleted.length} deployment(s)`;
}
