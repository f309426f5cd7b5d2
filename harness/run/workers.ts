// How many suite worker processes a run uses. A worker runs its suite files one after another,
// and a control-plane file waits for its revisions: minutes each on a real platform, and the whole
// deploy timeout when they stick. Files that wait in one worker wait one after another, so where
// revisions may take time every file gets a worker, as far as --concurrency allows (each worker
// gets its share of the requests in flight, at least one), and the waits of the run overlap.
// Where the harness knows revisions take milliseconds (the reference it starts, without slow
// builds or slow answers), the work is CPU: at most two workers, one a core. A budget changes nothing here: the
// tests that share deployments lease them from the run's pool, held by the certifying process for
// all workers (harness/budget/broker.ts), so they may run in any worker.
import { availableParallelism } from 'node:os';
import type { RunPlan } from './plan.ts';

/** An answer this late is mostly waiting, not CPU. */
export const SLOW_ANSWER_MS = 250;

/** Suite workers at most (harness/suite-runner/ starts no more than there are files). `cap`: the caller's own limit (apc selftest's one). */
export function suiteWorkers(plan: Pick<RunPlan, 'profile' | 'referenceChoice' | 'request' | 'suiteInterfaces' | 'latency'>, cap?: number): number {
  const slow = plan.request.referencePlatformLike?.behaviours ?? [];
  const quickRevisions = plan.referenceChoice !== undefined && !slow.includes('slow-builds');
  // Answers that come late (slow-posts, or a latency measured as the run starts) are waits too, on every interface: they overlap across workers.
  const slowAnswers = slow.includes('slow-posts') || Object.values(plan.latency ?? {}).some((l) => Math.max(l.readMs, l.postMs) >= SLOW_ANSWER_MS);
  const waiting = (plan.suiteInterfaces.includes('control-plane') && !quickRevisions) || slowAnswers;
  const limit = waiting ? plan.profile.concurrency : Math.min(2, availableParallelism(), plan.profile.concurrency);
  return Math.max(1, Math.min(cap ?? limit, limit));
}
