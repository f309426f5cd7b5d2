// The one owner of a compliance report's envelope: its schema version, the harness that made it,
// the counts derived from the requirements, and redaction of everything in it. A certify run,
// a run that could not judge its target and a merge of shard reports all assemble theirs here.
import type { Catalogue } from '../catalogue.ts';
import { harnessVersion } from '../version.ts';
import type { Redactor } from '../redact.ts';
import { countsOf, type ComplianceReport } from './compliance.ts';

export const HARNESS_NAME = 'agent-platform-conformance';

/** What a report is of: the run, its catalogue and its target. */
export interface ReportSubject {
  catalogue: Pick<Catalogue, 'version' | 'specVersion' | 'hash'>;
  runId: string;
  seed: number;
  shard?: ComplianceReport['shard'];
  replayOf?: string;
  mergedFrom?: string[];
  target: ComplianceReport['target'];
  /** The harness that judged it: this one, unless the report merges reports of another. */
  harness?: ComplianceReport['harness'];
}

/** What the run found. */
export type ReportResults = Pick<
  ComplianceReport,
  'startedAt' | 'endedAt' | 'verdict' | 'verdictReason' | 'mustScore' | 'requirements' | 'errors' | 'transient' | 'learned' | 'cost'
>;

/** The report of `subject` with `results`, every string of it through `redactor` (the run's). */
export function assembleReport(subject: ReportSubject, results: ReportResults, redactor: Pick<Redactor, 'value'>): ComplianceReport {
  const { catalogue } = subject;
  return redactor.value({
    schemaVersion: 1,
    harness: subject.harness ?? { name: HARNESS_NAME, version: harnessVersion() },
    catalogue: { version: catalogue.version, specVersion: catalogue.specVersion, hash: catalogue.hash },
    runId: subject.runId,
    seed: subject.seed,
    ...(subject.shard ? { shard: subject.shard } : {}),
    ...(subject.replayOf !== undefined ? { replayOf: subject.replayOf } : {}),
    ...(subject.mergedFrom ? { mergedFrom: subject.mergedFrom } : {}),
    target: subject.target,
    startedAt: results.startedAt,
    endedAt: results.endedAt,
    verdict: results.verdict,
    verdictReason: results.verdictReason,
    counts: countsOf(results.requirements),
    mustScore: results.mustScore,
    requirements: results.requirements,
    errors: results.errors,
    ...(results.transient ? { transient: results.transient } : {}),
    ...(results.learned ? { learned: results.learned } : {}),
    ...(results.cost ? { cost: results.cost } : {}),
  });
}
