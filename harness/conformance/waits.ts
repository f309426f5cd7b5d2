// The revision waits a test makes one after another, which decide a certification's wall time on
// a platform whose revisions are builds of minutes: what a test declares (TestCost.waits in
// requirement.ts), per answer of the target to a revision-creating PATCH while a revision is in
// progress. The plan counts them (harness/run/cost.ts) and the test's deadline leaves room for them.
import type { BusyPatch } from '../profile/profile.ts';
import type { Created } from './created.ts';

/** Revision waits one after another, per busyPatch answer. */
export type RevisionWaits = Partial<Record<BusyPatch, number>>;

/**
 * A test's waits for the target's busyPatch: what it declares; else, where a PATCH is accepted
 * while a revision is in progress none (only a test's own waits for a revision to end count, and
 * those are declared), and where it is refused at most one per revision the test makes.
 */
export const waitsOf = (cost: { creates: Created; waits?: RevisionWaits }, busyPatch: BusyPatch): number =>
  cost.waits?.[busyPatch] ?? (busyPatch === 'refused' ? (cost.creates.revisions ?? 0) : 0);
