// `apc certify`: reads the command line, then runs the pipeline (plan the run, execute it,
// assemble its report: harness/run/plan.ts, harness/run/execute.ts) and prints the verdict.
import { isAbsolute, relative } from 'node:path';
import { loadCatalogue } from '../catalogue.ts';
import { defaultProfile } from '../profile/profile.ts';
import { redactor } from '../redact.ts';
import { exitCodeOf } from '../report/compliance.ts';
import { writeRunErrorReport } from '../report/run-error-report.ts';
import { writeReports } from '../report/write.ts';
import { switchedOnLine, switchesOf } from '../report/switched-on.ts';
import { executeRun, reportOf, type RunHooks } from '../run/execute.ts';
import { draftRun, planRun, SetupError, type RunDraft, type RunRequest } from '../run/plan.ts';
import { Progress } from '../run/progress.ts';
import { PLATFORM_REVISION_MS, printPlan, REFERENCE_REVISION_MS } from '../run/cost.ts';
import { resumeDraft } from '../run/resume.ts';
import { ciShard } from '../run/ci-shard.ts';
import { suiteWorkers } from '../run/workers.ts';
import { parseDuration, type StopRequest } from '../run/run-stop.ts';
import { expandBareFlag, platformLikeOption } from './platform-like-option.ts';
import { harnessVersion } from './version.ts';
import { UsageError } from '../usage-error.ts';
import { targetSettings, TARGET_OPTIONS } from './target-options.ts';
import { CERTIFY_USAGE } from './usage.ts';
import { command, type CommandIo, type ValuesOf } from './command.ts';

export const OPTIONS = {
  ...TARGET_OPTIONS,
  interfaces: { type: 'string' },
  requirements: { type: 'string', multiple: true },
  shard: { type: 'string' },
  replay: { type: 'string' },
  'max-time': { type: 'string' },
  'max-rps': { type: 'string' },
  reports: { type: 'string' },
  'expected-failures': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  // Negative self-tests certify the reference with a deliberate deviation switched on.
  'reference-fault': { type: 'string', multiple: true },
  reference: { type: 'string' },
  database: { type: 'string' },
  'reference-platform-like': { type: 'string' },
  'reference-time-scale': { type: 'string' },
  plan: { type: 'boolean' },
  budget: { type: 'string' },
  resume: { type: 'string' },
  'revision-time': { type: 'string' },
} as const;

type CertifyValues = ValuesOf<typeof OPTIONS>;

function requestOf(v: CertifyValues): RunRequest {
  const platformLike = platformLikeOption('--reference-platform-like', v['reference-platform-like'], '--reference-time-scale', v['reference-time-scale']);
  return {
    settings: { ...targetSettings(v), ...(v.budget !== undefined ? { budget: v.budget } : {}) },
    interfaces: v.interfaces,
    requirements: v.requirements,
    shard: v.shard,
    replay: v.replay,
    maxTime: v['max-time'],
    maxRps: v['max-rps'],
    reports: v.reports,
    expectedFailures: v['expected-failures'],
    referenceFaults: v['reference-fault'],
    reference: v.reference,
    database: v.database,
    ...(platformLike ? { referencePlatformLike: platformLike } : {}),
    ...(v.plan ? { sendNothing: true } : {}),
    ...(v.resume !== undefined ? { resume: v.resume } : {}),
  };
}

/** `--revision-time` of the plan; by default the reference's when certifying it, else a real platform's build. */
function revisionTimeOf(text: string | undefined, reference: boolean): number {
  if (text === undefined) return reference ? REFERENCE_REVISION_MS : PLATFORM_REVISION_MS;
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(`--revision-time: expected seconds or a duration such as 90s, 14m or 1h, found ${JSON.stringify(text)}.`);
  return ms;
}

function shownDir(given: string | undefined, dir: string): string {
  return isAbsolute(given ?? '') ? dir : relative(process.cwd(), dir) || '.';
}

/** A report saying the run could not judge the target, in the run's report folder; false when none could be written. */
function errorReport(draft: RunDraft, io: CommandIo, reason: string, details: string[] = []): boolean {
  try {
    writeRunErrorReport(draft.reportDir, {
      catalogue: loadCatalogue(),
      runId: draft.runId,
      profile: draft.profile ?? defaultProfile(),
      reference: draft.reference !== undefined,
      startedAt: draft.startedAt,
      reason,
      details,
    });
    return true;
  } catch (error) {
    io.err.write(`apc certify: no report could be written to ${draft.reportDir}: ${redactor.text(String(error))}\n`);
    return false;
  }
}

/** How a caller inside the harness runs a certification (apc selftest runs many in one process). */
export interface CertifyOptions {
  /** Write allure-results beside the report (default true); apc selftest reads only compliance.json. */
  allure?: boolean;
  /** Suite worker processes at most (RunHooks.workers). */
  workers?: number;
  /** Runs the suites in vitest runs shared with other certifications (RunHooks.suites). */
  suites?: RunHooks['suites'];
  /** RunHooks.ownSeedJudged: apc selftest's detection run, whose own seed its first certification judged. */
  ownSeedJudged?: boolean;
}

export async function certify(argv: string[], io: CommandIo, stop?: StopRequest, options: CertifyOptions = {}): Promise<number> {
  const args = (argv: string[]) => expandBareFlag(argv, '--reference-platform-like');
  return command({ name: 'certify', options: OPTIONS, usage: CERTIFY_USAGE, args }, argv, io, (v) => certifyWith(v, io, stop, options));
}

async function certifyWith(v: CertifyValues, io: CommandIo, stop: StopRequest | undefined, options: CertifyOptions): Promise<number> {
  // Known once the options are read: where a report goes even when the run cannot judge the target.
  const draft = v.resume === undefined ? draftRun(v.reports) : resumeDraft(v.resume, v.reports);
  try {
    const progress = new Progress(io.out, v.quiet ?? false);
    const request = requestOf(v);
    if (request.shard === 'auto') {
      const found = ciShard(io.env);
      progress.line(found.said);
      request.shard = found.shard;
    }
    const plan = await planRun(request, io.env, draft, (line) => progress.line(line));
    if ('nothing' in plan) {
      io.out.write(`apc certify: ${plan.nothing}\n`);
      return 0;
    }
    const { profile, catalogue, selected, shard, replay } = plan;
    if (plan.baseline) progress.expecting(plan.baseline.entries.keys());
    if (v.plan) {
      const context = { profile, runId: plan.runId, reproFlags: '', workerConcurrency: 1 };
      const revisionTimeMs = revisionTimeOf(v['revision-time'], plan.reference !== undefined);
      await printPlan({ context, interfaces: plan.suiteInterfaces, ids: selected.map((r) => r.id), byId: catalogue.byId, revisionTimeMs, workers: suiteWorkers(plan), write: (line) => io.out.write(line) });
      return 0;
    }
    progress.line(`apc certify · run ${plan.runId} · seed ${profile.seed} · harness ${harnessVersion()} · catalogue ${catalogue.version}`);
    for (const i of plan.interfaces) progress.line(`  ${i.padEnd(18)} ${profile.urls[i]}`);
    progress.line(
      `  ${selected.length} requirement(s) selected${shard ? ` (shard ${shard.index}/${shard.count})` : ''}; control plane mode ${profile.controlPlaneMode}${plan.reference ? ' (reference implementation)' : ''}`,
    );
    const switched = switchedOnLine(switchesOf(plan.referenceFaults, plan.referencePlatformLike));
    if (switched) progress.line(`  the reference with ${switched}`);
    if (replay && plan.resumed) progress.line(`  resuming ${replay.runId} (${v.resume}): the ${replay.ids.length} requirement(s) it had not judged, with its seed`);
    else if (replay) progress.line(`  replay of ${replay.runId} (${v.replay}): its ${replay.ids.length} failed requirement(s) with its seed`);
    progress.line();

    const results = await executeRun(plan, {
      ...(stop ? { stop } : {}),
      listener: { outcome: (o) => progress.outcome(o), fileEnd: (f) => progress.fileEnd(f) },
      ...(options.workers ? { workers: options.workers } : {}),
      ...(options.suites ? { suites: options.suites } : {}),
      ...(options.ownSeedJudged ? { ownSeedJudged: true } : {}),
      stopping: (reason) => io.err.write(`\napc: ${reason}: stopping the suites${profile.keep ? '' : ' and deleting what the run created'}; press Ctrl-C again to exit at once.\n`),
    });
    const report = reportOf(plan, results);
    writeReports(plan.reportDir, report, { allure: options.allure !== false });
    progress.summary(report, shownDir(v.reports ?? v.resume, plan.reportDir));
    return exitCodeOf(report.verdict);
  } catch (error) {
    if (error instanceof SetupError) {
      errorReport(draft, io, error.message, error.problems.length === 1 ? [] : error.problems);
      io.err.write(redactor.text(`apc certify: cannot certify; nothing was judged.\n${error.problems.map((s) => `  - ${s}\n`).join('')}Report (verdict error): ${shownDir(v.reports ?? v.resume, draft.reportDir)}\n`));
      return 2;
    }
    if (error instanceof UsageError) {
      io.err.write(`apc certify: ${redactor.text(error.message)}\n`);
      // A setup mistake gets a report only where one was asked for (CI names the folder).
      if (v.reports !== undefined && errorReport(draft, io, redactor.text(error.message))) io.err.write(`report:  ${draft.reportDir}\n`);
      return 2;
    }
    // A crash of the harness itself still leaves a report saying so.
    const text = redactor.text(error instanceof Error ? (error.stack ?? error.message) : String(error));
    io.err.write(`apc certify: the harness failed: ${text}\n`);
    if (errorReport(draft, io, `The harness failed: ${redactor.text(error instanceof Error ? error.message : String(error))}. Please report this with the command you ran.`)) io.err.write(`report:  ${draft.reportDir}\n`);
    return 2;
  } finally {
    await draft.reference?.close();
  }
}
