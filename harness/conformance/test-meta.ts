// What a conformance test declares (its options, its cost) and what it leaves in its vitest meta
// for the certifying process (harness/suite-runner/outcome-collector.ts reads it).
import type { CheckTally, PropertyTally } from './check.ts';
import type { Created } from './created.ts';
import type { RequestCounts } from './request-count.ts';
import type { FailureRecord, SeenRecord } from './failure.ts';
import type { TransientTally } from '../http/throttling.ts';
import type { RunContext } from './run-context.ts';
import type { RevisionWaits } from './waits.ts';

export interface RequirementTestMeta {
  requirements?: string[];
  notApplicable?: string[];
  /** Why the test ended without judging its requirements, when it did. */
  notJudged?: string;
  /** Requirement id → checks of it that ran. */
  checks?: Record<string, CheckTally>;
  properties?: PropertyTally[];
  failures?: FailureRecord[];
  /** Failures of other rules it saw without stopping (a value outside its enum): findings.ts. */
  attributed?: FailureRecord[];
  /** What it saw against its own rules before it stopped at another rule's failure: not judged. */
  alsoSeen?: SeenRecord[];
  /** Its body ran to the end: every check it makes ran, so a failure is one it held back (`observe`), not a stop. */
  bodyEnded?: boolean;
  cleanupErrors?: string[];
  /** Per interface: answers 429 / 503 the test waited out, and for how long. */
  transient?: TransientTally;
  /** The test could not judge: a request stayed throttled or unavailable (the run's exit code says so). */
  keptRefusing?: boolean;
  /** What the test created on the target (counted from its exchanges). */
  created?: Created;
  /** The requests it sent, per interface, cleanups included. */
  requests?: RequestCounts;
  /** Set when the test is declared: what it may create at most, for the plan (harness/run/cost.ts). */
  cost?: TestCost;
}

/**
 * What a test creates at most on a target that follows the spec (refusals create nothing), and
 * how many revision waits it makes one after another.
 */
export interface TestCost {
  creates: Created;
  /**
   * Revision waits one after another, per answer of the target to a revision-creating PATCH while
   * a revision is in progress (the profile's busyPatch). A target that accepts it (spec 3) gets
   * every PATCH at once, so only the test's own waits for a revision to end count (default: none).
   * One that refuses it gets a revision-creating PATCH only once the revision before has ended
   * (default: one wait per revision the test makes). waits.ts waitsOf reads it.
   */
  waits?: RevisionWaits;
  /**
   * Under a budget: what the test shares with others, by key, and what each costs: made once per
   * run by whichever test needs it first (a pooled deployment and its first revision, say).
   */
  shared?: Record<string, Created>;
}

declare module 'vitest' {
  interface TaskMeta extends RequirementTestMeta {}
}

export interface RequirementOptions {
  /** Title after the ids; defaults to the first requirement's statement. */
  title?: string;
  /** Test deadline: `deploy` for waits on revisions, `stream` for event streams, or ms. */
  timeout?: 'deploy' | 'stream' | 'stats' | number;
  /** What the test creates at most; a function of the profile when it depends on `--runs`. Absent: nothing. */
  cost?: TestCost | ((profile: RunContext['profile']) => TestCost);
}
