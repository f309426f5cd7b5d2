// A report for a run that could not judge the target: the target was unreachable, a preflight
// check refused the setup, or the harness itself crashed. CI still gets a compliance.json with
// verdict `error` and the reason, and a junit.xml that shows it.
import { mkdirSync } from 'node:fs';
import type { Catalogue } from '../catalogue.ts';
import { redactedProfile, type TargetProfile } from '../profile/profile.ts';
import type { Redactor } from '../redact.ts';
import { assembleReport } from './assemble.ts';
import type { ComplianceReport } from './compliance.ts';
import { writeReports } from './write.ts';

export interface RunErrorInput {
  catalogue: Catalogue;
  runId: string;
  profile: TargetProfile;
  reference: boolean;
  startedAt: string;
  /** What went wrong and what to do, in a sentence or two. */
  reason: string;
  /** Further problems, one per line of the report's errors. */
  details?: string[];
  /** The run's redactor. */
  redactor: Redactor;
}

export function runErrorReport(input: RunErrorInput): ComplianceReport {
  const { catalogue, profile } = input;
  return assembleReport(
    {
      catalogue,
      runId: input.runId,
      seed: profile.seed,
      target: { urls: profile.urls, controlPlaneMode: profile.controlPlaneMode, reference: input.reference, profile: redactedProfile(profile) },
    },
    {
      startedAt: input.startedAt,
      endedAt: new Date().toISOString(),
      verdict: 'error',
      verdictReason: input.reason,
      mustScore: { passed: 0, applicable: 0 },
      requirements: [],
      errors: [input.reason, ...(input.details ?? [])],
    },
    input.redactor,
  );
}

/** Writes the error report in every format; returns it. */
export function writeRunErrorReport(dir: string, input: RunErrorInput): ComplianceReport {
  const report = runErrorReport(input);
  mkdirSync(dir, { recursive: true });
  writeReports(dir, report);
  return report;
}
