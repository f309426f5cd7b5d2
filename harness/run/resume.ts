// `apc certify --resume DIR`: the rest of an interrupted run. The same run id, seed, profile and
// report folder; only the requirements no ended test judged run again, and their results join
// the earlier ones in one report, so the builds an interrupted run paid for are not paid twice.
import type { Catalogue } from '../catalogue.ts';
import { addTally } from '../http/throttling.ts';
import { verdictOf, type ComplianceReport, type RequirementResult, type Universe } from '../report/compliance.ts';
import type { ReportResults } from '../report/assemble.ts';
import { combine } from '../report/merge.ts';
import { readReport, ReportError } from '../report/read.ts';
import { recordedRun, type ReplayPlan } from '../report/replay.ts';
import { addCost } from './cost.ts';
import { draftRun, type RunDraft } from './draft.ts';
import { NOT_RUN } from './run-stop.ts';
import { apcCommand } from '../apc-command.ts';

/** The recorded run to go on with, and its report so far. */
export interface ResumePlan extends ReplayPlan {
  previous: ComplianceReport;
}

const notRun = (r: RequirementResult): boolean => r.status === 'untested' && (r.reason ?? '').startsWith(NOT_RUN);

/** The command that resumes the run whose report is in `dir`. */
export const resumeCommand = (dir: string): string => `${apcCommand()} certify --resume ${dir}`;

export function resumePlan(dir: string, catalogue: Catalogue): ResumePlan {
  const previous = readReport(dir);
  if (previous.verdict !== 'interrupted') {
    throw new ReportError(`${dir}: the run ${previous.runId} was not interrupted (verdict ${previous.verdict}): there is nothing to resume. Run it again, or replay its failures with --replay.`);
  }
  if (previous.catalogue.hash !== catalogue.hash) {
    throw new ReportError(`${dir} was made with catalogue ${previous.catalogue.version}, this harness has ${catalogue.version}: resume it with the harness version that made it (${previous.harness.version}).`);
  }
  return { ...recordedRun(previous, previous.requirements.filter(notRun).map((r) => r.id)), previous };
}

/** The run id and report folder of the run to resume, so its resources and report keep them. */
export function resumeDraft(dir: string, reports: string | undefined): RunDraft {
  const draft = draftRun(reports ?? dir);
  try {
    const previous = readReport(dir);
    return { ...draft, runId: previous.runId, startedAt: previous.startedAt };
  } catch {
    // planRun reads the folder again and says what is wrong with it.
    return draft;
  }
}

/** The earlier part's results joined with those of the part that ran now. */
export function resumedResults(previous: ComplianceReport, results: ReportResults, universe: Universe): ReportResults {
  const fresh = new Map(results.requirements.map((r) => [r.id, r]));
  const requirements = previous.requirements.map((r) => {
    const now = fresh.get(r.id);
    if (!now) return r;
    return notRun(r) ? now : combine([r, now]);
  });
  const errors = [...previous.errors, ...results.errors];
  const judged = verdictOf(requirements, errors, universe);
  const interrupted = results.verdict === 'interrupted';
  const transient = addTally(addTally({}, previous.transient), results.transient);
  return {
    startedAt: previous.startedAt,
    endedAt: results.endedAt,
    verdict: interrupted ? 'interrupted' : judged.verdict,
    verdictReason: interrupted ? results.verdictReason : judged.reason,
    mustScore: judged.mustScore,
    requirements,
    errors,
    ...(Object.keys(transient).length > 0 ? { transient } : {}),
    cost: addCost(previous.cost, results.cost),
  };
}

