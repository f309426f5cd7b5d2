// One certification, from a request to its report: the one entry that `apc certify`
// (harness/cli/certify.ts) and apc selftest (harness/selftest/certify-in-process.ts) both call.
// It plans the run (plan.ts), executes it (execute.ts), writes its report and prints its progress
// and verdict; a run that cannot judge its target still gets a report saying so (verdict error).
import { addTally } from '../http/throttling.ts';
import { isAbsolute, relative } from 'node:path';
import { loadCatalogue } from '../catalogue.ts';
import { defaultProfile, PROBE_BUDGET } from '../profile/profile.ts';
import { exitCodeOf, type ComplianceReport } from '../report/compliance.ts';
import { writeRunErrorReport } from '../report/run-error-report.ts';
import { writeReports } from '../report/write.ts';
import { switchedOnLine, switchesOf } from '../report/switched-on.ts';
import type { SuiteRunner } from '../suite-runner/suite-runner.ts';
import { harnessVersion } from '../version.ts';
import { UsageError } from '../usage-error.ts';
import { PLATFORM_REVISION_MS, printPlan, REFERENCE_REVISION_MS } from './cost.ts';
import { executeRun, reportOf } from './execute.ts';
import { draftRun, planRun, SetupError, type RunDraft, type RunPlan, type RunRequest } from './plan.ts';
import { Progress, type Output } from './progress.ts';
import { resumeDraft } from './resume.ts';
import { ciShard } from './ci-shard.ts';
import { exitAtOnceHint, parseDuration, type StopRequest } from './run-stop.ts';
import { suiteWorkers } from './workers.ts';
import { expectedTime, expectedTimeLines, loadRequestTable } from './expected-time.ts';
import { measureLatency } from './latency.ts';
import { forgetBreakers } from '../http/circuit-breaker.ts';
import { inFlightFor } from './in-flight.ts';
import { addCreated, createdText } from '../conformance/created.ts';
import { budgetLeft, spentBefore } from './probe-budget.ts';

export interface CertifyRequest {
  /** What to certify, as the user asked it. */
  run: RunRequest;
  /** APC_* variables fill what the request leaves out. */
  env: NodeJS.ProcessEnv;
  out: Output;
  err: Output;
  /** Only the verdict is printed, not each test. */
  quiet?: boolean;
  /** With `run.sendNothing` (`--plan`): how long one revision takes (`--revision-time`). */
  revisionTime?: string;
  /** An interrupt or --max-time. */
  stop?: StopRequest;
  /** Write allure-results beside the report (default true); apc selftest reads only the report. */
  allure?: boolean;
  /** Suite worker processes at most (RunHooks.workers). */
  workers?: number;
  /** Runs the suites (default: a vitest instance of the run's own, harness/suite-runner/one-off.ts). */
  suites?: SuiteRunner;
  /** RunHooks.ownSeedJudged: apc selftest's detection run, whose own seed its first certification judged. */
  ownSeedJudged?: boolean;
}

export interface CertifyOutcome {
  /** The exit code of `apc certify`: the verdict's, 0 when there was nothing to run, 2 when nothing could be judged. */
  code: number;
  /** The report written, when one was (a verdict error one too). */
  report?: ComplianceReport;
  reportDir: string;
}

export async function certifyRun(request: CertifyRequest): Promise<CertifyOutcome> {
  const { run } = request;
  forgetBreakers();
  // Known before anything can fail: where a report goes even when the run cannot judge the target.
  const draft = run.resume === undefined ? draftRun(run.reports) : resumeDraft(run.resume, run.reports);
  try {
    return await planned(request, draft);
  } catch (error) {
    return failed(request, draft, error);
  } finally {
    await draft.reference?.close();
  }
}

async function planned(request: CertifyRequest, draft: RunDraft): Promise<CertifyOutcome> {
  const { run, out } = request;
  const progress = new Progress(out, request.quiet ?? false, draft.redactor);
  if (run.shard === 'auto') {
    const found = ciShard(request.env);
    progress.line(found.said);
    run.shard = found.shard;
  }
  const plan = await planRun(run, request.env, draft, (line) => progress.line(line));
  if ('nothing' in plan) {
    out.write(`apc certify: ${plan.nothing}\n`);
    return { code: 0, reportDir: draft.reportDir };
  }
  if (plan.baseline) progress.expecting(plan.baseline.entries.keys());
  // The latency samples may create only within what probing the target (and a resumed run's earlier part) left of the budget.
  const left = plan.profile.budget && { budget: budgetLeft(plan.profile.budget, spentBefore(plan.probeCreated?.created, plan.resumed)) };
  plan.latency = await measureLatency({ ...plan.profile, ...left }, plan.suiteInterfaces, {
    waited: (tally) => (plan.probeWaited = addTally(plan.probeWaited ?? {}, tally)),
    created: (created, problems) => {
      progress.line(probeCreatedLine({ created, problems }));
      const before = plan.probeCreated ?? { created: {}, problems: [] };
      plan.probeCreated = { created: addCreated({ ...before.created }, created), problems: [...before.problems, ...problems] };
    },
  });
  const inFlight = plan.concurrencyNamed ? undefined : inFlightFor(plan.latency, plan.profile.concurrency);
  if (inFlight) {
    plan.profile.concurrency = inFlight.concurrency;
    plan.inFlight = inFlight.line;
  }
  if (run.sendNothing) {
    await printCost(request, plan);
    return { code: 0, reportDir: draft.reportDir };
  }
  banner(plan, progress);
  const results = await executeRun(plan, {
    ...(request.stop ? { stop: request.stop } : {}),
    listener: { outcome: (o) => progress.outcome(o), fileEnd: (f) => progress.fileEnd(f) },
    ...(request.workers ? { workers: request.workers } : {}),
    ...(request.suites ? { suites: request.suites } : {}),
    ...(request.ownSeedJudged ? { ownSeedJudged: true } : {}),
    stopping: (reason) =>
      request.err.write(`\napc: ${reason}: stopping the suites${plan.profile.keep ? '' : ' and deleting what the run created'}; ${exitAtOnceHint(reason)}.\n`),
  });
  const report = reportOf(plan, results);
  writeReports(plan.reportDir, report, { allure: request.allure !== false });
  progress.summary(report, shownDir(run.reports ?? run.resume, plan.reportDir));
  return { code: exitCodeOf(report.verdict), report, reportDir: plan.reportDir };
}

/** What the latency samples created on a target that accepted an empty create, and what became of it. */
function probeCreatedLine({ created, problems }: NonNullable<RunPlan['probeCreated']>): string {
  const deleted = (created.deployments ?? 0) === 0 ? '' : problems.length === 0 ? '; deleted' : `; not all deleted (${problems.join('; ')})`;
  return `  The target accepted the latency probe's empty POST: it created ${createdText(created)}${deleted}. Counted in the run's "created" and its budget.`;
}

/** `--plan`: what the run would create and how long it would take, and nothing sent. */
async function printCost(request: CertifyRequest, plan: RunPlan): Promise<void> {
  const { profile, catalogue, selected } = plan;
  const context = { profile, runId: plan.runId, reproFlags: '', workerConcurrency: 1 };
  const revisionTimeMs = revisionTimeOf(request.revisionTime, plan.reference !== undefined);
  const write = (line: string) => request.out.write(line);
  const costed = await printPlan({
    context,
    interfaces: plan.suiteInterfaces,
    ids: selected.map((r) => r.id),
    byId: catalogue.byId,
    revisionTimeMs,
    workers: suiteWorkers(plan),
    ...(plan.probes ? { probes: { budget: PROBE_BUDGET, ...(plan.budgetLine ? { line: plan.budgetLine } : {}) } } : {}),
    write,
  });
  for (const line of expectedLines(plan, costed.waitsMs)) write(`${line}\n`);
}

/** The expected wall time from the latency measured and the selected tests' requests; `waitsMs`: the revision waits, when planned. */
function expectedLines(plan: RunPlan, waitsMs?: number): string[] {
  const table = loadRequestTable();
  const { concurrency, runs } = plan.profile;
  const raised = plan.inFlight ? [plan.inFlight] : [];
  const expected = expectedTime(
    table,
    plan.selected.map((r) => r.id),
    plan.latency ?? {},
    concurrency,
  );
  return [
    ...raised,
    ...expectedTimeLines(expected, plan.latency ?? {}, {
      concurrency,
      runs,
      tableRuns: table.runs,
      ...(waitsMs !== undefined ? { waitsMs } : {}),
      ...(plan.maxTime ? { maxTime: plan.maxTime } : {}),
    }),
  ];
}

function banner(plan: RunPlan, progress: Progress): void {
  const { profile, catalogue, selected, shard, replay } = plan;
  progress.line(`apc certify · run ${plan.runId} · seed ${profile.seed} · harness ${harnessVersion()} · catalogue ${catalogue.version}`);
  for (const i of plan.interfaces) progress.line(`  ${i.padEnd(18)} ${profile.urls[i]}`);
  if (plan.budgetLine) progress.line(`  ${plan.budgetLine}`);
  progress.line(
    `  ${selected.length} requirement(s) selected${shard ? ` (shard ${shard.index}/${shard.count})` : ''}; control plane mode ${profile.controlPlaneMode}${plan.reference ? ' (reference implementation)' : ''}`,
  );
  const switched = switchedOnLine(switchesOf(plan.referenceFaults, plan.referencePlatformLike));
  if (switched) progress.line(`  the reference with ${switched}`);
  const folder = plan.request.resume ?? plan.request.replay;
  if (replay && plan.resumed) progress.line(`  resuming ${replay.runId} (${folder}): the ${replay.ids.length} requirement(s) it had not judged, with its seed`);
  else if (replay) progress.line(`  replay of ${replay.runId} (${folder}): its ${replay.ids.length} failed requirement(s) with its seed`);
  for (const line of expectedLines(plan)) progress.line(line);
  progress.line();
}

/** A run that could not judge its target: what the user must fix, and a report saying so where one is due. */
function failed(request: CertifyRequest, draft: RunDraft, error: unknown): CertifyOutcome {
  const { run, err } = request;
  const shown = shownDir(run.reports ?? run.resume, draft.reportDir);
  const outcome = (report: ComplianceReport | undefined): CertifyOutcome => ({ code: 2, reportDir: draft.reportDir, ...(report ? { report } : {}) });
  if (error instanceof SetupError) {
    const report = errorReport(draft, err, error.message, error.problems.length === 1 ? [] : error.problems);
    err.write(
      draft.redactor.text(
        `apc certify: cannot certify; nothing was judged.\n${error.problems.map((s) => `  - ${s}\n`).join('')}Report (verdict error): ${shown}\n`,
      ),
    );
    return outcome(report);
  }
  if (error instanceof UsageError) {
    err.write(`apc certify: ${draft.redactor.text(error.message)}\n`);
    // A setup mistake gets a report only where one was asked for (CI names the folder).
    const report = run.reports !== undefined ? errorReport(draft, err, draft.redactor.text(error.message)) : undefined;
    if (report) err.write(`report:  ${draft.reportDir}\n`);
    return outcome(report);
  }
  // A crash of the harness itself still leaves a report saying so.
  const text = draft.redactor.text(error instanceof Error ? (error.stack ?? error.message) : String(error));
  err.write(`apc certify: the harness failed: ${text}\n`);
  const report = errorReport(
    draft,
    err,
    `The harness failed: ${draft.redactor.text(error instanceof Error ? error.message : String(error))}. Please report this with the command you ran.`,
  );
  if (report) err.write(`report:  ${draft.reportDir}\n`);
  return outcome(report);
}

/** A report saying the run could not judge the target, in the run's report folder; none when it could not be written. */
function errorReport(draft: RunDraft, err: Output, reason: string, details: string[] = []): ComplianceReport | undefined {
  try {
    return writeRunErrorReport(draft.reportDir, {
      catalogue: loadCatalogue(),
      runId: draft.runId,
      profile: draft.profile ?? defaultProfile(),
      reference: draft.reference !== undefined,
      startedAt: draft.startedAt,
      reason,
      details,
      redactor: draft.redactor,
    });
  } catch (error) {
    err.write(`apc certify: no report could be written to ${draft.reportDir}: ${draft.redactor.text(String(error))}\n`);
    return undefined;
  }
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
