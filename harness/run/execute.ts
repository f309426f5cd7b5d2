// The second stage of a certify run: runs the planned suites against the planned target, within
// --max-time and until an interrupt, and judges what they found: a status per requirement and
// the verdict. The third stage, reportOf, puts that into a compliance report.
import { addTally } from '../http/throttling.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { RunContext } from '../conformance/run-context.ts';
import { learnedIn, type LearnedFacts } from '../conformance/learned.ts';
import { slotSharePublisher } from '../conformance/slot-share.ts';
import { ROOT } from '../root.ts';
import { DEFAULT_PACT_DIR } from '../pact/pact-files.ts';
import { addConsumerCounts } from '../pact/reliance.ts';
import { budgeted, defaultSources, INTERFACES, redactedProfile, type InterfaceName, type TargetProfile } from '../profile/profile.ts';
import { choiceFlags } from '../reference/reference-choice.ts';
import { assembleReport, type ReportResults } from '../report/assemble.ts';
import { buildResults, transientOf, universeOf, verdictOf, type ComplianceReport } from '../report/compliance.ts';
import { switchesOf } from '../report/switched-on.ts';
import { addCost, byInterface, overBudget, plannable, runCost, spreadOf, type RunCost } from './cost.ts';
import { plannedTests } from './planned-tests.ts';
import type { Created } from '../conformance/created.ts';
import { postToBroker } from '../budget/loopback.ts';
import { resumeCommand, resumedResults } from './resume.ts';
import { LeftoverSweep } from './leftovers.ts';
import { startPoolBroker, type PoolBroker } from '../budget/broker.ts';
import type { RunPlan } from './plan.ts';
import { oneOffRunner } from '../suite-runner/one-off.ts';
import { runFiles } from '../suite-runner/suite-files.ts';
import type { RunListener, SuiteRunner } from '../suite-runner/suite-runner.ts';
import { markNotRun, withDeadline, type StopRequest } from './run-stop.ts';
import { suiteWorkers } from './workers.ts';
import { deleteBoundMs } from '../conformance/awaiting-delete.ts';
import { budgetLeft, spentBefore } from './probe-budget.ts';

export interface RunHooks {
  listener?: RunListener;
  /** An interrupt or --max-time. */
  stop?: StopRequest;
  /** Told once when the run starts to stop, with the reason. */
  stopping?: (reason: string) => void;
  /**
   * Suite worker processes at most (default: workers.ts). apc selftest gives one: its
   * certifications run side by side and fill each other's waits.
   */
  workers?: number;
  /** Runs the suites (default oneOffRunner); apc selftest keeps its runners' workers (harness/suite-runner/). */
  suites?: SuiteRunner;
  /** The run's own seed was judged before (RunContext.ownSeedJudged): apc selftest's detection runs. */
  ownSeedJudged?: boolean;
}

/** Flags that start the reference again as certified: its mode, fault switches and platform-like behaviours. */
function referenceFlags(plan: RunPlan): string[] {
  const platformLike = plan.referencePlatformLike;
  return [
    plan.profile.controlPlaneMode === 'self-hosted' ? '--control-plane-mode self-hosted' : '',
    ...plan.referenceFaults.map((f) => `--reference-fault ${f}`),
    platformLike ? `--reference-platform-like ${platformLike.behaviours.join(',')}` : '',
    platformLike?.timeScale !== undefined && platformLike.timeScale !== 1 ? `--reference-time-scale ${platformLike.timeScale}` : '',
    plan.referenceChoice ? choiceFlags(plan.referenceChoice) : '',
  ].filter(Boolean);
}

/** Flags that name the same target again, without secrets (they come from APC_API_KEY). */
function reproFlags(plan: RunPlan): string {
  const { profile } = plan;
  if (plan.reference !== undefined) return referenceFlags(plan).join(' ');
  const profileFile = plan.request.settings.profileFile;
  const flags: string[] = [];
  if (profileFile) flags.push(`--profile ${profileFile}`);
  const names: Record<InterfaceName, string> = {
    'control-plane': '--control-plane-url',
    'agent-server': '--agent-server-url',
    'experiment-upload': '--tracing-url',
  };
  for (const i of INTERFACES) if (profile.urls[i]) flags.push(`${names[i]} ${profile.urls[i]}`);
  if (profile.tenantId) flags.push(`--tenant-id ${profile.tenantId}`);
  if (profile.agentServerHosting === 'self-run') flags.push('--agent-server-hosting self-run');
  if (profile.apiKey) flags.push('--api-key "$APC_API_KEY"');
  return flags.join(' ');
}

/**
 * After an interrupt, or a run that pooled deployments (they belong to the run, not a test):
 * deletes what the run created (as its tests would have), each request bounded.
 */
async function deleteRunLeftovers(profile: TargetProfile, runId: string, when: string): Promise<string[]> {
  // An interrupted run waits a little for asynchronous deletions; `apc cleanup` finds what is left.
  const sweep = new LeftoverSweep(profile, Math.min(profile.timeouts.requestMs, 10_000), Math.min(deleteBoundMs(profile), 30_000));
  const { found, problems } = await sweep.scan(runId);
  return [...problems, ...(await sweep.deleteAll(found))].map((p) => `cleanup ${when}: ${p}`);
}

/** The run's listener, also telling the workers' share of the requests in flight as files end (conformance/slot-share.ts). */
function sharingSlots(listener: RunListener | undefined, share: { fileEnded(file: string): void }): RunListener {
  return {
    outcome: (outcome) => listener?.outcome?.(outcome),
    fileEnd(file) {
      share.fileEnded(file);
      listener?.fileEnd?.(file);
    },
  };
}

/** Runs the plan; a resumed run's results join those of its earlier part. */
export async function executeRun(plan: RunPlan, hooks: RunHooks = {}): Promise<ReportResults> {
  const results = await executePart(plan, hooks);
  return plan.resumed ? resumedResults(plan.resumed, results, universeOf(plan.catalogue)) : results;
}

/** The context the suite workers get: the profile, each worker's share of the limits, and under a budget the tests it leaves out. */
async function runContextOf(plan: RunPlan, hooks: RunHooks, workers: number, stateDir: string): Promise<RunContext> {
  const { profile, runId, catalogue } = plan;
  const ids = plan.selected.map((r) => r.id);
  const context: RunContext = {
    profile,
    runId,
    reproFlags: reproFlags(plan),
    workerConcurrency: Math.max(1, Math.floor(profile.concurrency / workers)),
    requirements: catalogue.requirements,
    ...(plan.maxRps ? { workerMaxRps: plan.maxRps / workers } : {}),
    ...(plan.adaptiveRps ? { adaptiveRps: true } : {}),
    stateDir,
    ...(plan.latency ? { latency: plan.latency } : {}),
    ...(hooks.ownSeedJudged ? { ownSeedJudged: true } : {}),
  };
  if (profile.budget && budgeted(profile)) {
    const tests = await plannedTests(context, plan.suiteInterfaces, ids);
    // The tests get what probing the target (and a resumed run's earlier part) left of the budget (startPool settles it first).
    const probed = plan.probeCreated?.created;
    const budget = budgetLeft(profile.budget, spentBefore(probed, plan.resumed));
    if (probed?.deployments || probed?.revisions) context.probeSpent = { deployments: probed.deployments ?? 0, revisions: probed.revisions ?? 0 };
    context.overBudget = overBudget(tests, plannable(budget), (id) => catalogue.byId.get(id)?.level);
    // The copies of the pooled deployments, as the plan counted them (its workers: suiteWorkers(plan)).
    const kept = tests.filter((t) => !context.overBudget!.includes(t.title));
    const { copies } = spreadOf(kept, catalogue.byId, budget, profile.busyPatch, suiteWorkers(plan));
    if (Object.keys(copies).length > 0) context.poolCopies = copies;
  }
  return context;
}

/**
 * Under a budget the suite workers share the run's pool of deployments, held here
 * (harness/budget/broker.ts), whose ledger starts with what probing the target created (the
 * discovery of a run without a profile; the latency samples on a target that accepted an empty
 * create, latency.ts) and what a resumed run's earlier part created: the tests get only the rest
 * of the budget.
 */
async function startPool(plan: RunPlan, context: RunContext): Promise<PoolBroker | undefined> {
  if (!budgeted(plan.profile) || !plan.suiteInterfaces.includes('control-plane')) return undefined;
  const pool = await startPoolBroker(plan.profile.budget);
  context.poolUrl = pool.url;
  const { deployments = 0, revisions = 0 } = spentBefore(plan.probeCreated?.created, plan.resumed);
  if (deployments || revisions) await postToBroker(`${pool.url}/settle`, { reserved: {}, created: { deployments, revisions } }, "the run's budget");
  return pool;
}

async function executePart(plan: RunPlan, hooks: RunHooks): Promise<ReportResults> {
  const { profile, runId, catalogue } = plan;
  const ids = plan.selected.map((r) => r.id);
  // No more workers than files to run: each worker's share of the requests in flight is then as large as it can be.
  const files = runFiles(plan.suiteInterfaces, ids);
  const workers = Math.max(1, Math.min(suiteWorkers(plan, hooks.workers), files.length));
  const stateDir = mkdtempSync(join(tmpdir(), `${runId}-state-`));
  const context = await runContextOf(plan, hooks, workers, stateDir);
  const startedAt = new Date().toISOString();
  const deadline = withDeadline(hooks.stop, plan.maxTime?.ms, plan.maxTime?.label ?? '');
  let stopReason: string | undefined;
  const stopped = deadline.requested?.then((reason) => {
    stopReason = reason;
    hooks.stopping?.(reason);
  });
  const pool = await startPool(plan, context);
  let learned: LearnedFacts | undefined;
  const { outcomes, errors } = await (hooks.suites ?? oneOffRunner)
    .run({
      ...(stopped ? { stop: stopped } : {}),
      context,
      redactor: plan.redactor,
      interfaces: plan.suiteInterfaces,
      ids,
      workers,
      listener: sharingSlots(
        hooks.listener,
        slotSharePublisher(
          stateDir,
          profile.concurrency,
          workers,
          files.map((f) => relative(ROOT, f)),
        ),
      ),
    })
    .finally(async () => {
      deadline.cancel();
      learned = learnedIn(stateDir);
      rmSync(stateDir, { recursive: true, force: true });
      await pool?.close();
    });
  // A source kind the spec gives the mode that the profile leaves out: its deployments' rules went unjudged, so no certificate.
  const omittedRequired = defaultSources(profile.controlPlaneMode)
    .filter((s) => !profile.sources.includes(s))
    .map((s) => `source:${s}`);
  const built = buildResults({ catalogue, selected: plan.selected, outcomes, errors, omittedRequired, ...(plan.baseline ? { baseline: plan.baseline } : {}) });
  const requirements = stopReason ? markNotRun(built.requirements, stopReason) : built.requirements;
  const runErrors = built.errors;
  addConsumerCounts(requirements, DEFAULT_PACT_DIR);
  // Pooled deployments (suites/control-plane/support/shared.ts) belong to the run: made by a test that shares one.
  if (stopReason && !profile.keep) runErrors.push(...(await deleteRunLeftovers(profile, runId, 'after the interrupt')));
  const judged = verdictOf(requirements, runErrors, universeOf(catalogue));
  // What a failing target left of the pool is reported, but judges nothing: the tests did.
  const pooled = outcomes.some((o) => o.cost?.shared && (o.created?.deployments ?? 0) > 0);
  if (!stopReason && pooled && !profile.keep) runErrors.push(...(await deleteRunLeftovers(profile, runId, 'of the pooled deployments')));
  runErrors.push(...(plan.probeCreated?.problems ?? []));
  const resumable = `Resume it (the same run, seed and target; keys given again as flags or APC_* variables): ${resumeCommand(plan.reportDir)}`;
  const { verdict, reason } = stopReason
    ? { verdict: 'interrupted' as const, reason: `Interrupted: ${stopReason}; the report holds the tests that ended before. ${resumable}` }
    : judged;
  const tally = addTally(addTally({}, plan.probeWaited), transientOf(outcomes));
  const transient = Object.keys(tally).length > 0 ? tally : undefined;
  return {
    startedAt,
    endedAt: new Date().toISOString(),
    verdict,
    verdictReason: reason,
    mustScore: judged.mustScore,
    requirements,
    errors: runErrors,
    ...(transient ? { transient } : {}),
    ...(learned ? { learned } : {}),
    cost: addCost(
      runCost(outcomes, catalogue.byId, learned?.busyPatch?.value ?? profile.busyPatch, context.poolCopies),
      probeCost(plan.probeCreated?.created ?? {}),
    ),
  };
}

/** The report of a planned run. */
export function reportOf(plan: RunPlan, results: ReportResults): ComplianceReport {
  const { profile } = plan;
  return assembleReport(
    {
      catalogue: plan.catalogue,
      runId: plan.runId,
      seed: profile.seed,
      ...(plan.shard ? { shard: plan.shard } : {}),
      ...(plan.replay && !plan.resumed ? { replayOf: plan.replay.runId } : {}),
      target: {
        urls: profile.urls,
        controlPlaneMode: profile.controlPlaneMode,
        reference: plan.reference !== undefined,
        ...(plan.reference ? { instance: plan.reference.instance } : {}),
        ...switchesOf(plan.referenceFaults, plan.referencePlatformLike),
        profile: redactedProfile(profile),
      },
    },
    results,
    plan.redactor,
  );
}

/**
 * What probing the target (discovery, the latency samples) created: counted in "created", and in
 * "planned" too, as the tests were planned within what the probes left ("created: 15 deployments
 * (of at most 12 planned)" read as a broken promise where the probes took 3 of a budget of 16).
 */
function probeCost(created: Created): RunCost {
  const planned: RunCost['planned'] = {};
  for (const [name, creates] of Object.entries(byInterface(created)) as [InterfaceName, Created][]) planned[name] = { creates, waitsInARow: 0, tests: 0 };
  return { planned, created: byInterface(created) };
}
