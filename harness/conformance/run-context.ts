// What the certifying process hands to the suite workers (through vitest's provide/inject).
import type { Requirement } from '../catalogue.ts';
import type { Budget, TargetProfile } from '../profile/profile.ts';
import type { Latency } from './request-count.ts';

export interface RunContext {
  profile: TargetProfile;
  /** Prefix of every resource the run creates, e.g. `apc-k3x9q2`. */
  runId: string;
  /** Command-line flags that name the target again, for replay lines (no secrets). */
  reproFlags: string;
  /** Requests in flight per worker, so all workers together respect the profile's limit. */
  workerConcurrency: number;
  /** Requests per second per worker (`--max-rps` shared among the workers); unlimited when absent. */
  workerMaxRps?: number;
  /** `--max-rps auto`: each worker slows down after a 429 and settles below the target's limit (harness/http/limiter.ts). */
  adaptiveRps?: boolean;
  /** The target's latency, measured as the run started (harness/run/latency.ts): tests' deadlines grow with it (slow-deadline.ts). */
  latency?: Latency;
  /** A folder the workers share for the run's circuit breakers (harness/http/circuit-breaker.ts). */
  stateDir?: string;
  /** The run's pool of shared deployments (harness/budget/broker.ts), under a budget: leased by one test at a time across workers. */
  poolUrl?: string;
  /** Under a budget, per test title, the copy of a pooled deployment it leases for a declared key where not the key itself (harness/budget/spread.ts). */
  poolCopies?: Record<string, Record<string, string>>;
  /** Titles of the tests the budget leaves out (harness/run/cost.ts): each is skipped, saying so. */
  overBudget?: string[];
  /** What probing the target took of the budget before the tests (harness/run/probe-budget.ts): a test left out says so. */
  probeSpent?: Budget;
  /** The catalogue's requirements as the certifying process read them: a worker need not parse requirements/ again. */
  requirements?: Requirement[];
  /**
   * With `--seeds N`: the run's own seed was judged by an earlier certification of the same target,
   * seed and runs (apc selftest's first certification of a mutant), so only the N-1 others run.
   */
  ownSeedJudged?: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    apcRun: RunContext;
    /** A shared vitest run's contexts, by run key (harness/conformance/run-of-file.ts). */
    apcRuns: Record<string, RunContext>;
  }
}
