// A test's side of the run's budget (ledger.ts): the guard its control-plane client asks before a
// request that may create a deployment (a create) or a revision (a PATCH of a deployment). When
// the budget cannot cover it, the request is not sent and the test ends skipped, "budget: spent",
// never failed; the verdict then says which MUSTs went unjudged. Once answered, the reservation
// is settled to what the request created, counted as the report counts it
// (harness/conformance/created.ts), so the report's "created" never passes the budget.
import type { RequestGuard, Recorder, RequestOptions } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { budgetText, createdBy, createdText, type Created } from '../conformance/created.ts';
import { NotJudged } from '../conformance/failure.ts';
import type { RunContext } from '../conformance/run-context.ts';
import type { BudgetLedger, Spend } from './ledger.ts';
import type { TargetProfile } from '../profile/profile.ts';
import { postToBroker } from './loopback.ts';

/** What a request may create at most, by its method and path; nothing for the rest. */
export function mayCreate(options: Pick<RequestOptions, 'method' | 'path' | 'url'>): Spend {
  if (options.url !== undefined) return {};
  const path = options.path.split('?')[0]!.replace(/\/+$/, '');
  if (options.method === 'POST' && path === '/v2/deployments') return { deployments: 1, revisions: 1 };
  if (options.method === 'PATCH' && /^\/v2\/deployments\/[^/]+$/.test(path)) return { revisions: 1 };
  return {};
}

/** A request to the run's broker, whose errors name this service. */
const post = (url: string, body: unknown) => postToBroker(url, body, "the run's budget");

/** How long a reservation waits for requests in flight to settle before it asks again. */
const WAIT_MS = 50;

const spendOf = (created: Created): Spend => ({ deployments: created.deployments ?? 0, revisions: created.revisions ?? 0 });

/**
 * The guard of a test's control-plane client under a budget (the run's pool service holds the
 * ledger: run context `poolUrl`); undefined without one. `recorder` holds the test's exchanges,
 * from which what each request created is counted; a reservation waits for others in flight no
 * later than `deadlineAt` (the test's).
 */
export function budgetGuard(run: RunContext, recorder: Recorder, deadlineAt?: number): RequestGuard<Spend> | undefined {
  if (!run.poolUrl) return undefined;
  const url = run.poolUrl;
  let counted = spendOf(createdBy(recorder.exchanges, run.profile));
  return {
    async before(options) {
      const want = mayCreate(options);
      if (!want.deployments && !want.revisions) return {};
      for (;;) {
        const answer = await post(`${url}/spend`, want);
        if (answer.reservation === 'granted') return want;
        const created = answer.created as Spend;
        if (answer.reservation === 'spent' || (deadlineAt !== undefined && Date.now() + WAIT_MS > deadlineAt)) {
          throw new NotJudged(
            'skipped',
            `budget: spent: the run has created ${createdText({ deployments: created.deployments ?? 0, revisions: created.revisions ?? 0 })} of its budget (${budgetText(run.profile.budget)}), and ${options.method} ${options.path} could create more`,
          );
        }
        // Requests in flight reserved the rest: what they do not create comes back when they are answered.
        await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
      }
    },
    async after(reserved: Spend, _exchange: Exchange | undefined) {
      if (!reserved.deployments && !reserved.revisions) return;
      const now = spendOf(createdBy(recorder.exchanges, run.profile));
      const created: Spend = { deployments: Math.max(0, now.deployments! - counted.deployments!), revisions: Math.max(0, now.revisions! - counted.revisions!) };
      counted = now;
      await post(`${url}/settle`, { reserved, created });
    },
  };
}

/** A request a command's own budget cannot cover (localBudgetGuard): it was not sent. */
export class BudgetSpent extends Error {}

/**
 * The guard of a command that creates on its own, with no run's broker (`apc init`'s probes): the
 * ledger is this process's. A request runs one at a time there, so one the ledger cannot grant at
 * once is not sent (BudgetSpent); once answered, it is settled to what it created.
 */
export function localBudgetGuard(ledger: BudgetLedger, recorder: Recorder, profile: TargetProfile): RequestGuard<Spend> {
  let counted = spendOf(createdBy(recorder.exchanges, profile));
  return {
    async before(options) {
      const want = mayCreate(options);
      if (!want.deployments && !want.revisions) return {};
      if (ledger.reserve(want) === 'granted') return want;
      const created = createdText({ deployments: ledger.created.deployments, revisions: ledger.created.revisions });
      throw new BudgetSpent(
        `budget: spent: created ${created} of the budget (${budgetText(ledger.budget)}), and ${options.method} ${options.path} could create more`,
      );
    },
    async after(reserved: Spend) {
      if (!reserved.deployments && !reserved.revisions) return;
      const now = spendOf(createdBy(recorder.exchanges, profile));
      ledger.settle(reserved, {
        deployments: Math.max(0, now.deployments! - counted.deployments!),
        revisions: Math.max(0, now.revisions! - counted.revisions!),
      });
      counted = now;
    },
  };
}
