// A run before it is planned: its id, its report folder and start, known from the command line
// alone, so that a run that fails while planning still gets a report where it was asked for.
// Planning (plan.ts) and resuming an interrupted run (resume.ts) both start from one.
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { TargetProfile } from '../profile/profile.ts';
import { Redactor } from '../redact.ts';
import type { ReferenceTarget } from '../reference/reference-target.ts';

/**
 * Known before anything can fail: where the report of a run that could not judge its target
 * goes. Planning fills in the profile and the started reference as they become known.
 */
export interface RunDraft {
  runId: string;
  reportDir: string;
  startedAt: string;
  profile?: TargetProfile;
  /** Started by the plan; whoever started the plan closes it, also when planning failed. */
  reference?: ReferenceTarget;
  /**
   * The run's redactor: the profile's keys once planned (and a started database's password).
   * What the run prints and writes goes through it; another run in this process has its own.
   */
  redactor: Redactor;
}

export function draftRun(reports: string | undefined): RunDraft {
  const runId = `apc-${randomBytes(4).toString('hex').slice(0, 6)}`;
  return { runId, reportDir: resolve(reports ?? join('reports', runId)), startedAt: new Date().toISOString(), redactor: new Redactor() };
}
