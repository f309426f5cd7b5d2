// What a run learns of the target while it runs, for the rest of the run and for its report. One
// fact so far: the target refuses a revision-creating PATCH while a revision is in progress
// (busyPatch: refused), which a hand-written profile may not say. A test that meets such a
// refusal learns it; from then on every test of the run waits for the latest revision to end
// before a PATCH, as `apc init`'s profile would have told it to. Each suite file runs in a worker
// process of its own, so the fact is shared through the run's folder (RunContext.stateDir): one
// file, written once, read when a test starts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ComplianceReport } from '../../schemas/compliance-report.ts';
import type { RunContext } from './run-context.ts';

/** What the run learned, for the report: the busyPatch answer and what showed it. */
export type LearnedFacts = NonNullable<ComplianceReport['learned']>;

const BUSY_PATCH_FILE = 'learned-busy-patch.txt';

/**
 * A refusal's `detail` that says a revision is in progress (the hosted platform: "A revision is
 * already in progress for this deployment."), in the words such answers use.
 */
export const BUSY_DETAIL = /\bin progress\b|\bbusy\b|\bunder ?way\b|\bstill (building|deploying)\b/i;

/** Records that the target refuses a revision-creating PATCH while a revision is in progress; the first test to see it says how. */
export function learnBusyPatchRefused(run: RunContext, how: string): void {
  run.profile.busyPatch = 'refused';
  if (!run.stateDir) return;
  try {
    writeFileSync(join(run.stateDir, BUSY_PATCH_FILE), how, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** Applies what other tests of the run learned to this worker's profile (called as a test starts). */
export function applyLearned(run: RunContext): void {
  if (run.profile.busyPatch !== 'refused' && run.stateDir && existsSync(join(run.stateDir, BUSY_PATCH_FILE))) run.profile.busyPatch = 'refused';
}

/** What the run's tests learned, read from its folder once they have ended. */
export function learnedIn(stateDir: string): LearnedFacts | undefined {
  const file = join(stateDir, BUSY_PATCH_FILE);
  if (!existsSync(file)) return undefined;
  return { busyPatch: { value: 'refused', how: readFileSync(file, 'utf8') } };
}

/** One line per fact, for the terminal and the Markdown report. */
export function learnedLines(learned: LearnedFacts | undefined): string[] {
  if (!learned?.busyPatch) return [];
  return [
    `busyPatch: refused: ${learned.busyPatch.how}; each later PATCH waited for the latest revision to end. Write \`busyPatch: refused\` in the profile (apc init finds it) and the plan counts those waits.`,
  ];
}
