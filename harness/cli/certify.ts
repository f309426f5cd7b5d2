// `apc certify`: build the profile, start the reference implementation when no target is given,
// check the target answers, run the selected suites, write the report, print the verdict.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CatalogueError, checkSelection, loadCatalogue, SelectionError, selector, type Requirement } from '../catalogue.ts';
import type { RunContext } from '../conformance/run-context.ts';
import { DEFAULT_PACT_DIR } from '../pact/pact-files.ts';
import { addConsumerCounts } from '../pact/reliance.ts';
import { defaultProfile, INTERFACES, profileSecrets, redactedProfile, type InterfaceName, type TargetProfile } from '../profile/profile.ts';
import { buildProfile, ProfileError, type ProfileSettings } from '../profile/sources.ts';
import { redactor } from '../redact.ts';
import { BaselineError, loadBaseline } from '../report/baseline.ts';
import { buildResults, countsOf, exitCodeOf, universeOf, verdictOf, type Baseline, type ComplianceReport } from '../report/compliance.ts';
import { ReportError } from '../report/read.ts';
import { replayPlan } from '../report/replay.ts';
import { writeRunErrorReport } from '../report/run-error-report.ts';
import { writeReports } from '../report/write.ts';
import { applyDiscovery, discover } from '../profile/discovery.ts';
import { assumptionLines } from '../profile/writer.ts';
import { checkSetup } from '../run/preflight.ts';
import { LeftoverSweep } from '../run/leftovers.ts';
import { Progress, type Output } from '../run/progress.ts';
import { ContainerError } from '../reference/docker.ts';
import { referenceProfileBase, startReferenceTarget, type ReferenceTarget } from '../reference/reference-target.ts';
import { choiceFlags, referenceChoice } from '../reference/reference-choice.ts';
import { runSuites } from '../run/run-suites.ts';
import { markNotRun, parseDuration, withDeadline, type StopRequest } from '../run/run-stop.ts';
import { unknownFaultMessage } from './fault-names.ts';
import { harnessVersion } from './version.ts';
import { UsageError } from './usage-error.ts';
import { targetSettings, TARGET_OPTIONS } from './target-options.ts';
import { CERTIFY_USAGE } from './usage.ts';

const OPTIONS = {
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
} as const;

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
  const list = text.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of list) {
    if (!INTERFACES.includes(name as InterfaceName)) throw new UsageError(`--interfaces: unknown interface "${name}"; use ${INTERFACES.join(', ')}.`);
    if (!profile.urls[name as InterfaceName]) {
      throw new UsageError(`--interfaces includes ${name}, but no ${name} URL was given (see \`apc help certify\`).`);
    }
  }
  return list as InterfaceName[];
}

/** A deterministic slice: requirements sorted by id, every count-th from index. */
function shardOf(requirements: Requirement[], shard: { index: number; count: number } | undefined): Requirement[] {
  if (!shard) return requirements;
  return [...requirements].sort((a, b) => a.id.localeCompare(b.id)).filter((_, i) => i % shard.count === shard.index - 1);
}

/** Flags that name the same target again, without secrets (they come from APC_API_KEY): the reference with its faults. */
function reproFlags(profile: TargetProfile, reference: boolean, profileFile: string | undefined, faults: string[]): string {
  if (reference) return [profile.controlPlaneMode === 'self-hosted' ? '--control-plane-mode self-hosted' : '', ...faults.map((f) => `--reference-fault ${f}`)].filter(Boolean).join(' ');
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

function shownDir(given: string | undefined, dir: string): string {
  return isAbsolute(given ?? '') ? dir : relative(process.cwd(), dir) || '.';
}

export interface CertifyIo {
  out: Output;
  err: Output;
  env: NodeJS.ProcessEnv;
}

export async function certify(argv: string[], io: CertifyIo, stop?: StopRequest): Promise<number> {
  let reference: ReferenceTarget | undefined;
  // Known once the options are read: where a report goes even when the run cannot judge the target.
  let runInfo: { dir: string; runId: string; startedAt: string; profile?: TargetProfile; reference: boolean } | undefined;
  const errorReport = (reason: string) => {
    if (!runInfo) return;
    try {
      const catalogue = loadCatalogue();
      writeRunErrorReport(runInfo.dir, { catalogue, runId: runInfo.runId, profile: runInfo.profile ?? defaultProfile(), reference: runInfo.reference, startedAt: runInfo.startedAt, reason });
      io.err.write(`report:  ${runInfo.dir}\n`);
    } catch (error) {
      io.err.write(`apc certify: no report could be written to ${runInfo.dir}: ${redactor.text(String(error))}\n`);
    }
  };
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: false, strict: true });
    } catch (error) {
      throw new UsageError(`${(error as Error).message.split('\n')[0]}\nRun \`apc help certify\` for the options.`);
    }
    const v = parsed.values;
    if (v.help) {
      io.out.write(CERTIFY_USAGE);
      return 0;
    }
    const runId = `apc-${randomBytes(4).toString('hex').slice(0, 6)}`;
    const reportDir = resolve(v.reports ?? join('reports', runId));
    runInfo = { dir: reportDir, runId, startedAt: new Date().toISOString(), reference: false };
    const maxTimeMs = v['max-time'] === undefined ? undefined : parseDuration(v['max-time']);
    if (v['max-time'] !== undefined && maxTimeMs === undefined) throw new UsageError(`--max-time: expected seconds or a duration such as 90s, 30m or 2h, found ${JSON.stringify(v['max-time'])}.`);
    const maxRps = v['max-rps'] === undefined ? undefined : Number(v['max-rps']);
    if (maxRps !== undefined && !(maxRps > 0)) throw new UsageError(`--max-rps: expected a number of requests per second above 0, found ${JSON.stringify(v['max-rps'])}.`);
    if (v.replay !== undefined && (v.requirements || v.interfaces || v.shard)) {
      throw new UsageError('--replay runs exactly the failed requirements of a report: leave out --requirements, --interfaces and --shard.');
    }
    const catalogue = loadCatalogue();
    checkSelection(v.requirements ?? [], catalogue);
    const replay = v.replay === undefined ? undefined : replayPlan(v.replay, catalogue);
    if (replay && replay.ids.length === 0) {
      io.out.write(`apc certify: the report in ${v.replay} has no failed requirement; nothing to replay.\n`);
      return 0;
    }
    const given: ProfileSettings = { ...targetSettings(v), otherTenantId: v['other-tenant-id'] ?? replay?.otherTenantId };
    // A replay starts from the recorded profile as it was; flags given again win.
    let profile = buildProfile(given, io.env, replay?.profile);
    runInfo.profile = profile;
    if (replay?.otherTenantId !== undefined && !profile.otherTenant) {
      throw new UsageError(`--replay: the run ${replay.runId} had a second tenant (${replay.otherTenantId}); give its key again with --other-api-key or APC_OTHER_API_KEY (keys are never written to a report).`);
    }
    const shard = parseShard(v.shard);
    const baseline: Baseline | undefined = v['expected-failures'] ? loadBaseline(v['expected-failures'], catalogue) : undefined;
    const progress = new Progress(io.out, v.quiet ?? false);

    const usesReference = INTERFACES.every((i) => !profile.urls[i]);
    // A replay of a fault run turns the recorded faults on again, unless faults are given again.
    const faults = v['reference-fault'] ?? replay?.faults ?? [];
    const faultProblem = unknownFaultMessage('--reference-fault', faults);
    if (faultProblem) throw new UsageError(faultProblem);
    const choice = referenceChoice(v.reference, v.database);
    if (typeof choice === 'string') throw new UsageError(choice);
    if (usesReference) {
      progress.line(`No target URL given: starting the in-repo reference implementation${choice.kind === 'container' ? ' in a container' : ''}.`);
      profile = buildProfile(given, io.env, replay?.profile ?? referenceProfileBase());
      reference = await startReferenceTarget({
        mode: profile.controlPlaneMode,
        faults,
        ...choice,
        env: io.env,
        log: (line) => progress.line(line),
      });
      reference.apply(profile);
      runInfo = { ...runInfo, profile, reference: true };
    } else if (v['reference-fault'] || v.reference || v.database) {
      throw new UsageError('--reference, --database and --reference-fault apply only when certifying the in-repo reference implementation (no URL).');
    }
    redactor.add(...profileSecrets(profile));
    const interfaces = parseInterfaces(replay ? replay.interfaces.join(',') : v.interfaces, profile);
    const patterns = replay ? replay.ids : (v.requirements ?? []);
    const wanted = selector(patterns);
    const selected = shardOf(
      catalogue.requirements.filter((r) => interfaces.includes(r.interface) && wanted(r.id)),
      shard,
    );
    if (selected.length === 0) throw new UsageError('No requirement matches --requirements/--interfaces/--shard; nothing to certify.');
    const setup = await checkSetup(profile, interfaces.filter((i) => selected.some((r) => r.interface === i)));
    if (setup.length > 0) {
      const reason = `The harness could not run: ${setup.length === 1 ? setup[0] : 'the setup has problems (see errors).'}`;
      writeRunErrorReport(reportDir, { catalogue, runId, profile, reference: usesReference, startedAt: runInfo.startedAt, reason, details: setup.length === 1 ? [] : setup });
      io.err.write(redactor.text(`apc certify: cannot certify; nothing was judged.\n${setup.map((s) => `  - ${s}\n`).join('')}Report (verdict error): ${shownDir(v.reports, reportDir)}\n`));
      return 2;
    }
    mkdirSync(reportDir, { recursive: true });
    // URLs without a profile: probe what the target offers, as `apc init` does, and say so.
    if (!usesReference && !replay && !(v.profile ?? io.env.APC_PROFILE)) {
      // Probes are cheap requests: each is bounded like the preflight's, whatever the profile's deadline.
      const probing = { ...profile, timeouts: { ...profile.timeouts, requestMs: Math.min(profile.timeouts.requestMs, 10_000) } };
      const found = await discover({ profile: probing, runId, modeGiven: v['control-plane-mode'] !== undefined || io.env.APC_CONTROL_PLANE_MODE !== undefined });
      profile = applyDiscovery(profile, found);
      progress.line('No profile given: probed the target (`apc init` writes these findings to a profile you can keep). Assumed:');
      for (const line of assumptionLines(profile, found)) progress.line(`  ${line}`);
    }
    const workers = Math.max(1, Math.min(2, availableParallelism(), profile.concurrency));
    const stateDir = mkdtempSync(join(tmpdir(), `${runId}-state-`));
    const context: RunContext = {
      profile,
      runId,
      reproFlags: [reproFlags(profile, usesReference, v.profile, faults), usesReference ? choiceFlags(choice) : ''].filter(Boolean).join(' '),
      workerConcurrency: Math.max(1, Math.floor(profile.concurrency / workers)),
      ...(maxRps ? { workerMaxRps: maxRps / workers } : {}),
      stateDir,
    };
    progress.line(`apc certify · run ${runId} · seed ${profile.seed} · harness ${harnessVersion()} · catalogue ${catalogue.version}`);
    for (const i of interfaces) progress.line(`  ${i.padEnd(18)} ${profile.urls[i]}`);
    progress.line(
      `  ${selected.length} requirement(s) selected${shard ? ` (shard ${shard.index}/${shard.count})` : ''}; control plane mode ${profile.controlPlaneMode}${usesReference ? ' (reference implementation)' : ''}`,
    );
    if (replay) progress.line(`  replay of ${replay.runId} (${v.replay}): its ${replay.ids.length} failed requirement(s) with its seed`);
    progress.line();

    const startedAt = new Date().toISOString();
    const deadline = withDeadline(stop, maxTimeMs, `--max-time ${v['max-time']}`);
    let stopReason: string | undefined;
    const stopped = deadline.requested?.then((reason) => {
      stopReason = reason;
      io.err.write(`\napc: ${reason}: stopping the suites${profile.keep ? '' : ' and deleting what the run created'}; press Ctrl-C again to exit at once.\n`);
    });
    const { outcomes, errors } = await runSuites({
      ...(stopped ? { stop: stopped } : {}),
      context,
      // Only suite files of interfaces with selected requirements are loaded.
      interfaces: interfaces.filter((i) => selected.some((r) => r.interface === i)),
      ids: selected.map((r) => r.id),
      workers,
      listener: { outcome: (o) => progress.outcome(o), fileEnd: (f) => progress.fileEnd(f) },
    }).finally(() => {
      deadline.cancel();
      rmSync(stateDir, { recursive: true, force: true });
    });
    const built = buildResults({ catalogue, selected, outcomes, errors, ...(baseline ? { baseline } : {}) });
    const requirements = stopReason ? markNotRun(built.requirements, stopReason) : built.requirements;
    const runErrors = built.errors;
    addConsumerCounts(requirements, DEFAULT_PACT_DIR);
    if (stopReason && !profile.keep) runErrors.push(...(await deleteRunLeftovers(profile, runId)));
    const judged = verdictOf(requirements, runErrors, universeOf(catalogue));
    const { mustScore } = judged;
    const { verdict, reason } = stopReason ? { verdict: 'interrupted' as const, reason: `Interrupted: ${stopReason}; the report holds the tests that ended before.` } : judged;
    const report: ComplianceReport = redactor.value({
      schemaVersion: 1,
      harness: { name: 'agent-platform-conformance', version: harnessVersion() },
      catalogue: { version: catalogue.version, specVersion: catalogue.specVersion, hash: catalogue.hash },
      runId,
      seed: profile.seed,
      ...(shard ? { shard } : {}),
      ...(replay ? { replayOf: replay.runId } : {}),
      target: {
        urls: profile.urls,
        controlPlaneMode: profile.controlPlaneMode,
        reference: usesReference,
        ...(reference ? { instance: reference.instance } : {}),
        ...(reference && faults.length > 0 ? { faults } : {}),
        profile: redactedProfile(profile),
      },
      startedAt,
      endedAt: new Date().toISOString(),
      verdict,
      verdictReason: reason,
      counts: countsOf(requirements),
      mustScore,
      requirements,
      errors: runErrors,
    });
    writeReports(reportDir, report);
    progress.summary(report, shownDir(v.reports, reportDir));
    return exitCodeOf(verdict);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ContainerError || error instanceof ProfileError || error instanceof CatalogueError || error instanceof SelectionError || error instanceof BaselineError || error instanceof ReportError) {
      io.err.write(`apc certify: ${redactor.text(error.message)}\n`);
      // A setup mistake gets a report only where one was asked for (CI names the folder).
      if (argv.some((a) => a === '--reports' || a.startsWith('--reports='))) errorReport(redactor.text(error.message));
      return 2;
    }
    // A crash of the harness itself still leaves a report saying so.
    const text = redactor.text(error instanceof Error ? (error.stack ?? error.message) : String(error));
    io.err.write(`apc certify: the harness failed: ${text}\n`);
    errorReport(`The harness failed: ${redactor.text(error instanceof Error ? error.message : String(error))}. Please report this with the command you ran.`);
    return 2;
  } finally {
    await reference?.close();
  }
}

/** After an interrupt: deletes what the run created (as its tests would have), each request bounded. */
async function deleteRunLeftovers(profile: TargetProfile, runId: string): Promise<string[]> {
  const sweep = new LeftoverSweep(profile, Math.min(profile.timeouts.requestMs, 10_000));
  const { found, problems } = await sweep.scan(runId);
  return [...problems, ...(await sweep.deleteAll(found))].map((p) => `cleanup after the interrupt: ${p}`);
}
