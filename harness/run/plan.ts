// The first stage of a certify run: from what the user asked (flags and APC_* variables) to a
// RunPlan that names everything the run needs: its id and report folder, the catalogue and the
// requirements selected, and the target's profile, resolved here once (from its sources, the
// started reference implementation and what probing the target found) and not changed after.
import type { TransientTally } from '../http/throttling.ts';
import type { Created } from '../conformance/created.ts';
import { mkdirSync } from 'node:fs';
import { checkSelection, loadCatalogue, selector, type Catalogue, type Requirement } from '../catalogue.ts';
import { defaultProfile, INTERFACES, profileSecrets, type InterfaceName, type TargetProfile } from '../profile/profile.ts';
import { buildProfile, type ProfileSettings } from '../profile/sources.ts';
import { assumptionLines } from '../profile/writer.ts';
import type { PlatformLikeOptions } from '../../reference-impl/platform-like/behaviours.ts';
import { referenceChoice, type ReferenceChoice } from '../reference/reference-choice.ts';
import { referenceProfileBase, startReferenceTarget } from '../reference/reference-target.ts';
import { loadBaseline } from '../report/baseline.ts';
import type { Baseline } from '../report/compliance.ts';
import { replayPlan, type ReplayPlan } from '../report/replay.ts';
import type { ComplianceReport } from '../report/compliance.ts';
import { resumePlan } from './resume.ts';
import { unknownFaultMessage } from '../reference/fault-names.ts';
import { UsageError } from '../usage-error.ts';
import type { RunDraft } from './draft.ts';
import { checkSetup } from './preflight.ts';
import type { Latency } from './latency.ts';
import { parseDuration } from './run-stop.ts';
import { apcCommand } from '../apc-command.ts';
import { defaultUrlBudget } from './probe-budget.ts';

/** What the user asked for, as given: strings before validation. */
export interface RunRequest {
  /** The target and its profile (flags); APC_* variables fill what they leave out. */
  settings: ProfileSettings;
  interfaces?: string;
  requirements?: string[];
  shard?: string;
  replay?: string;
  maxTime?: string;
  maxRps?: string;
  reports?: string;
  expectedFailures?: string;
  referenceFaults?: string[];
  reference?: string;
  database?: string;
  /** The reference behaving as the real hosted platform does (--reference-platform-like). */
  referencePlatformLike?: PlatformLikeOptions;
  /** `--resume DIR`: the rest of the interrupted run whose report is in DIR. */
  resume?: string;
  /** `--plan`: the run is planned to print its cost, and nothing is sent to the target. */
  sendNothing?: boolean;
}

export { draftRun, type RunDraft } from './draft.ts';

export interface RunPlan extends RunDraft {
  request: RunRequest;
  catalogue: Catalogue;
  /** The target's profile, final. */
  profile: TargetProfile;
  selected: Requirement[];
  /** The interfaces asked for (all with a URL, unless --interfaces names some). */
  interfaces: InterfaceName[];
  /** Those of them with selected requirements: only their suite files are loaded. */
  suiteInterfaces: InterfaceName[];
  shard?: { index: number; count: number };
  replay?: ReplayPlan;
  /** `--resume`: the interrupted run's report so far (its recorded run is `replay`). */
  resumed?: ComplianceReport;
  baseline?: Baseline;
  maxTime?: { ms: number; label: string };
  maxRps?: number;
  /** `--max-rps auto`: each worker slows down after a 429 and settles (harness/http/limiter.ts). */
  adaptiveRps?: boolean;
  /** How the reference implementation was started, when it is the target. */
  referenceChoice?: ReferenceChoice;
  /** The reference's fault switches that are on: given, or restored from the replayed report. */
  referenceFaults: string[];
  /** The reference's platform-like behaviours, when on: given, or restored from the replayed report. */
  referencePlatformLike?: PlatformLikeOptions;
  /** The target's request latency, measured as the run starts (latency.ts). */
  latency?: Latency;
  /** The 429s and 503s the latency samples waited out, counted with the tests' own. */
  probeWaited?: TransientTally;
  /** Whether a source named the requests in flight (a flag, a variable, the profile file, the run resumed): then a slow target's default is not raised (in-flight.ts). */
  concurrencyNamed: boolean;
  /** The requests in flight raised for a slow target, in the line the run prints (in-flight.ts). */
  inFlight?: string;
  /**
   * What probing the target created before the tests: the discovery of a run without a profile
   * (its deployments and revisions), the latency samples on a target that accepted an empty create
   * (latency.ts). Counted with the tests' own, in the report and the budget; what deleting it left.
   */
  probeCreated?: { created: Created; problems: string[] };
  /** The run probes the target without a profile before its tests: `--plan` plans them within what the probes may leave (probe-budget.ts). */
  probes?: boolean;
  /** How the run's default budget is made, when it is more than a URL target's (probe-budget.ts): the header says it. */
  budgetLine?: string;
}

/** Nothing to run, and why (a replay of a report without a failed requirement). */
export interface NothingToRun {
  nothing: string;
}

/** The target cannot be certified as set up; each problem says what to fix. */
export class SetupError extends Error {
  constructor(readonly problems: string[]) {
    super(`The harness could not run: ${problems.length === 1 ? problems[0] : 'the setup has problems (see errors).'}`);
  }
}

function parseShard(text: string | undefined): { index: number; count: number } | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new UsageError(`--shard: expected I/N with 1 <= I <= N (for example 2/4), found ${JSON.stringify(text)}.`);
  }
  return { index, count };
}

function parseInterfaces(text: string | undefined, profile: TargetProfile): InterfaceName[] {
  const withUrl = INTERFACES.filter((i) => profile.urls[i]);
  if (text === undefined) return withUrl;
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of list) {
    if (!INTERFACES.includes(name as InterfaceName)) throw new UsageError(`--interfaces: unknown interface "${name}"; use ${INTERFACES.join(', ')}.`);
    if (!profile.urls[name as InterfaceName]) {
      throw new UsageError(`--interfaces includes ${name}, but no ${name} URL was given (see \`${apcCommand()} help certify\`).`);
    }
  }
  return list as InterfaceName[];
}

/** A deterministic slice: requirements sorted by id, every count-th from index. */
function shardOf(requirements: Requirement[], shard: { index: number; count: number } | undefined): Requirement[] {
  if (!shard) return requirements;
  return [...requirements].sort((a, b) => a.id.localeCompare(b.id)).filter((_, i) => i % shard.count === shard.index - 1);
}

function parseLimits(request: RunRequest): Pick<RunPlan, 'maxTime' | 'maxRps' | 'adaptiveRps'> {
  const maxTimeMs = request.maxTime === undefined ? undefined : parseDuration(request.maxTime);
  if (request.maxTime !== undefined && maxTimeMs === undefined) {
    throw new UsageError(`--max-time: expected seconds or a duration such as 90s, 30m or 2h, found ${JSON.stringify(request.maxTime)}.`);
  }
  const adaptiveRps = request.maxRps === 'auto';
  const maxRps = request.maxRps === undefined || adaptiveRps ? undefined : Number(request.maxRps);
  if (maxRps !== undefined && !(maxRps > 0))
    throw new UsageError(`--max-rps: expected a number of requests per second above 0, or auto, found ${JSON.stringify(request.maxRps)}.`);
  return {
    ...(maxTimeMs !== undefined ? { maxTime: { ms: maxTimeMs, label: `--max-time ${request.maxTime}` } } : {}),
    ...(maxRps ? { maxRps } : {}),
    ...(adaptiveRps ? { adaptiveRps } : {}),
  };
}

/**
 * The profile from its sources: flags over APC_* variables over a profile file over the base (a
 * replayed report's profile, or the reference's timings when no URL names a target).
 */
/**
 * Whether flags, APC_* variables or the profile file name the requests in flight: the profile
 * built again on a base that names none (0, which no source may give) keeps 0 only where none did.
 * A replayed or resumed run keeps its recorded one.
 */
function concurrencyNamed(settings: ProfileSettings, env: NodeJS.ProcessEnv, replay: ReplayPlan | undefined): boolean {
  return replay !== undefined || buildProfile(settings, env, { ...defaultProfile(), concurrency: 0 }).concurrency !== 0;
}

/** Whether a profile is given (a file, a document, APC_PROFILE): a run by URL without one probes the target first. */
const profileNamed = (settings: ProfileSettings, env: NodeJS.ProcessEnv): boolean =>
  Boolean(settings.profileFile ?? settings.profileDocument ?? env.APC_PROFILE);

function resolveProfile(
  settings: ProfileSettings,
  env: NodeJS.ProcessEnv,
  replay: ReplayPlan | undefined,
): { profile: TargetProfile; usesReference: boolean; probes: boolean; budgetLine?: string } {
  const profile = buildProfile(settings, env, replay?.profile);
  const usesReference = INTERFACES.every((i) => !profile.urls[i]);
  // Only the control plane's probes create what a budget counts (a deployment of each source kind, the busyPatch PATCHes).
  const probes = !usesReference && !replay && !profileNamed(settings, env) && profile.urls['control-plane'] !== undefined;
  // A target given by URL may be a real platform, where builds cost: a budget unless one is set or
  // lifted, with room for the probes of a run without a profile (probe-budget.ts).
  if (!usesReference && !replay && profile.budget === undefined) {
    const { budget, line } = defaultUrlBudget(probes);
    profile.budget = budget;
    if (line) return { profile, usesReference, probes, budgetLine: line };
  }
  if (!usesReference || replay) return { profile, usesReference, probes };
  return { profile: buildProfile(settings, env, referenceProfileBase()), usesReference, probes };
}

/** --replay and --resume take what they run from a report: flags that select requirements do not go with them. */
function checkReplayFlags(request: RunRequest): void {
  if (request.replay !== undefined && (request.requirements || request.interfaces || request.shard)) {
    throw new UsageError('--replay runs exactly the failed requirements of a report: leave out --requirements, --interfaces and --shard.');
  }
  if (request.resume !== undefined && (request.requirements || request.interfaces || request.shard || request.replay)) {
    throw new UsageError(
      '--resume runs what the interrupted run did not judge, as it was selected: leave out --requirements, --interfaces, --shard and --replay.',
    );
  }
}

/**
 * The profile once the setup holds (else a SetupError), and the report folder made. With `probe`
 * (bare URLs, not a replay): first how the agent server answers without a key, asked before a
 * missing key is called the user's mistake; then, without a profile, what the target offers, as
 * `apc init` probes it, said in `log`. Probing loads the create generators (fast-check): a run of
 * the reference does without them.
 */
async function setUp(
  given: TargetProfile,
  how: { probe: boolean; settings: ProfileSettings; env: NodeJS.ProcessEnv; draft: RunDraft; suiteInterfaces: InterfaceName[]; log: (line: string) => void },
): Promise<{ profile: TargetProfile; created?: Created }> {
  const { settings, env, draft, log } = how;
  let profile = given;
  const discovery = how.probe ? await import('../discovery/discovery.ts') : undefined;
  const hosting = discovery ? await discovery.hostingBeforeSetup(profile, settings, env) : undefined;
  if (hosting) profile = { ...profile, agentServerHosting: hosting.hosting };
  const setup = await checkSetup(profile, how.suiteInterfaces, hosting?.how);
  if (setup.length > 0) throw new SetupError(setup);
  mkdirSync(draft.reportDir, { recursive: true });
  if (!discovery || profileNamed(settings, env)) return { profile };
  // Probes are cheap requests: each is bounded like the preflight's, whatever the profile's deadline.
  const probing = { ...profile, timeouts: { ...profile.timeouts, requestMs: Math.min(profile.timeouts.requestMs, 10_000) } };
  // Within the run's budget, as `apc init` probes: a probe it cannot cover is not sent.
  const { discoverWithinBudget, billLine } = await import('../discovery/within-budget.ts');
  const { found, exchanges, created } = await discoverWithinBudget({
    profile: probing,
    runId: draft.runId,
    modeGiven: settings.controlPlaneMode !== undefined || env.APC_CONTROL_PLANE_MODE !== undefined,
  });
  profile = discovery.applyDiscovery(profile, found);
  log(`No profile given: probed the target (\`${apcCommand()} init\` writes these findings to a profile you can keep). Assumed:`);
  if (profile.urls['control-plane']) log(`  probing ${billLine(exchanges, profile)}; counted in the run's "created" and its budget`);
  for (const line of assumptionLines(profile, found)) log(`  ${line}`);
  return { profile, created };
}

/**
 * The reference's faults, platform-like behaviours and how it runs; with `profile` (no URL names a
 * target) the reference started into `draft.reference`, its URLs and keys written into `profile`.
 * A replay of a fault run turns the recorded faults (and platform-like behaviours with their time
 * scale) on again, unless given again. Flags only the reference reads are a mistake with a URL.
 */
async function startReference(
  request: RunRequest,
  replay: ReplayPlan | undefined,
  profile: TargetProfile | undefined,
  { draft, env, log }: { draft: RunDraft; env: NodeJS.ProcessEnv; log: (line: string) => void },
) {
  const faults = request.referenceFaults ?? replay?.faults ?? [];
  const platformLike = request.referencePlatformLike ?? replay?.platformLike;
  const faultProblem = unknownFaultMessage('--reference-fault', faults);
  if (faultProblem) throw new UsageError(faultProblem);
  const choice = referenceChoice(request.reference, request.database);
  if (typeof choice === 'string') throw new UsageError(choice);
  if (profile) {
    log(`No target URL given: starting the in-repo reference implementation${choice.kind === 'container' ? ' in a container' : ''}.`);
    draft.reference = await startReferenceTarget({
      mode: profile.controlPlaneMode,
      faults,
      ...(platformLike ? { platformLike } : {}),
      ...choice,
      env,
      log,
      redactor: draft.redactor,
    });
    draft.reference.apply(profile);
  } else if (request.referenceFaults || request.reference || request.database || request.referencePlatformLike) {
    throw new UsageError(
      '--reference, --database, --reference-fault and --reference-platform-like apply only when certifying the in-repo reference implementation (no URL).',
    );
  }
  return { faults, platformLike, choice };
}

/**
 * Plans a run; starts the reference implementation when no URL is given (into `draft.reference`,
 * so the caller closes it however planning ends). `log` prints a line of progress.
 */
export async function planRun(request: RunRequest, env: NodeJS.ProcessEnv, draft: RunDraft, log: (line: string) => void): Promise<RunPlan | NothingToRun> {
  const limits = parseLimits(request);
  checkReplayFlags(request);
  const catalogue = loadCatalogue();
  checkSelection(request.requirements ?? [], catalogue);
  const resume = request.resume === undefined ? undefined : resumePlan(request.resume, catalogue);
  const replay = resume ?? (request.replay === undefined ? undefined : replayPlan(request.replay, catalogue));
  if (resume && resume.ids.length === 0)
    return { nothing: `the run in ${request.resume} judged every requirement it selected before it stopped; nothing to resume.` };
  if (replay && replay.ids.length === 0) return { nothing: `the report in ${request.replay} has no failed requirement; nothing to replay.` };
  const settings: ProfileSettings = { ...request.settings, otherTenantId: request.settings.otherTenantId ?? replay?.otherTenantId };
  // A replay starts from the recorded profile as it was; flags given again win.
  const resolved = resolveProfile(settings, env, replay);
  let profile = resolved.profile;
  const { usesReference, probes, budgetLine } = resolved;
  draft.profile = profile;
  if (replay?.otherTenantId !== undefined && !profile.otherTenant) {
    throw new UsageError(
      `--replay: the run ${replay.runId} had a second tenant (${replay.otherTenantId}); give its key again with --other-api-key or APC_OTHER_API_KEY (keys are never written to a report).`,
    );
  }
  const shard = parseShard(request.shard);
  const baseline = request.expectedFailures ? loadBaseline(request.expectedFailures, catalogue) : undefined;

  const { faults, platformLike, choice } = await startReference(request, replay, usesReference ? profile : undefined, { draft, env, log });
  draft.redactor.add(...profileSecrets(profile));
  const interfaces = parseInterfaces(replay ? replay.interfaces.join(',') : request.interfaces, profile);
  const wanted = selector(replay ? replay.ids : (request.requirements ?? []));
  const selected = shardOf(
    catalogue.requirements.filter((r) => interfaces.includes(r.interface) && wanted(r.id)),
    shard,
  );
  if (selected.length === 0) throw new UsageError('No requirement matches --requirements/--interfaces/--shard; nothing to certify.');
  const suiteInterfaces = interfaces.filter((i) => selected.some((r) => r.interface === i));
  const referenceFaults = usesReference ? faults : [];
  const referencePlatformLike = usesReference ? platformLike : undefined;
  const planned = {
    ...draft,
    request,
    catalogue,
    profile,
    selected,
    interfaces,
    suiteInterfaces,
    referenceFaults,
    concurrencyNamed: concurrencyNamed(settings, env, replay),
    ...(probes ? { probes } : {}),
    ...(budgetLine ? { budgetLine } : {}),
    ...(referencePlatformLike ? { referencePlatformLike } : {}),
    ...(shard ? { shard } : {}),
    ...limits,
  };
  if (request.sendNothing) return planned;
  const setup = await setUp(profile, { probe: !usesReference && !replay, settings, env, draft, suiteInterfaces, log });
  profile = setup.profile;
  draft.profile = profile;
  const probed = setup.created?.deployments || setup.created?.revisions ? { probeCreated: { created: setup.created, problems: [] } } : {};
  return {
    ...planned,
    ...probed,
    profile,
    ...(replay ? { replay } : {}),
    ...(resume ? { resumed: resume.previous } : {}),
    ...(baseline ? { baseline } : {}),
    ...(usesReference ? { referenceChoice: choice } : {}),
  };
}
