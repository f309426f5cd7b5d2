// Certifies one selftest subject with `apc certify` and keeps what the measures need: the
// requirements that failed or were blocked, and for a mutant the seeds that caught it. A mutant or
// variation is a reference started here (its fault switches on) with the subject's proxy in front
// of one interface, certified inside this process (certify-in-process.ts); a hostile target starts
// itself and is certified in a child process, since what it tests is that the run ends in time.
import type { RequirementResult } from '../report/compliance.ts';
import { referenceProfileFile, startReferenceTarget } from '../reference/reference-target.ts';
import { certifyChild, type ChildCertifyRun } from './certify-child.ts';
import { certifyInProcess } from './certify-in-process.ts';
import type { ProfileSettings } from '../profile/sources.ts';
import type { RunRequest } from '../run/plan.ts';
import { startProxy } from '../proxy/proxy.ts';
import type { SuiteRunner } from '../suite-runner/suite-runner.ts';
import { isGenerated, type HostileTarget, type Mutant, type Subject, type Variation } from './subjects.ts';
import { waitsMost } from './subject-list.ts';

/**
 * How often a subject that mostly waits polls (revisions, deletions, statistics): the reference's
 * 20 ms, meant for its 10 ms phases, polled a deploy timeout out 1,500 times and a platform-like
 * build of 150 ms phases 8 times a phase (a stuck revision's certification sent 6,500 requests).
 */
const WAITING_POLL_MS = 100;

export interface RunSettings {
  /** fast-check runs per property. */
  runs: number;
  seed: number;
  /** Seeds of the detection run (mutants caught by a property); 1 skips it. */
  seeds: number;
  /** fast-check runs per property and seed in the detection run (what users get: the default 25). */
  detectionRuns: number;
  /** Bound of one certification of a mutant or variation. */
  timeoutMs: number;
  /** `--budget` of every certification (does a budgeted run still catch the mutants?); else none, the reference's profile's. */
  budget?: string;
  /** Stops the certifications under way (apc selftest interrupted). */
  signal?: AbortSignal;
  /** Runs the certifications' suites (apc selftest's keep their workers, harness/suite-runner/batches.ts); else each runs its own. */
  batches?: SuiteRunner;
}

export interface Judged {
  id: string;
  level: RequirementResult['level'];
  /** The first failure's message, or what blocked it. */
  message: string;
}

export interface SubjectRun {
  id: string;
  kind: Subject['kind'];
  what: string;
  interface: Subject['interface'];
  /** Exit code of `apc certify` (null: killed at its bound). */
  code: number | null;
  verdict: string | undefined;
  durationMs: number;
  failed: Judged[];
  blocked: Judged[];
  /** A hostile target's bound. */
  boundMs?: number;
  /** The detection run of a mutant caught by property rules: those rules, the seeds run, and the seeds that caught it. */
  detection?: { requirements: string[]; seeds: number; caught: number[] };
  /** What went wrong when no report was written. */
  error?: string;
}

export async function runSubject(subject: Subject, settings: RunSettings): Promise<SubjectRun> {
  if (subject.kind === 'hostile') return runHostile(subject, settings.signal);
  const run = await certifyBent(subject, settings);
  const outcome = outcomeOf(subject, run);
  // A generated mutant is caught by any failure: no detection run over the rules it names.
  if (subject.kind === 'mutant' && !isGenerated(subject) && settings.seeds > 1 && !settings.signal?.aborted) {
    const requirements = subject.catches.filter((id) => run.report?.requirements.find((r) => r.id === id)?.cases);
    if (requirements.length > 0) outcome.detection = await detect(subject, requirements, settings, run.report?.requirements ?? []);
  }
  return outcome;
}

/**
 * The reference, bent as the subject says, certified on the subject's interface (also used by the
 * failure-evidence test). `extra`: profile settings besides the run's (`seeds`, a deadline).
 */
export async function certifyBent(subject: Mutant | Variation, settings: RunSettings, extra: ProfileSettings = {}, run: { ownSeedJudged?: boolean } = {}): Promise<ChildCertifyRun> {
  const mode = subject.mode ?? 'hosted';
  const target = await startReferenceTarget({
    mode,
    faults: subject.faults ?? [],
    ...(subject.platformLike ? { platformLike: subject.platformLike } : {}),
  });
  const [own, other] = target.grants;
  const urls = { ...target.urls };
  const proxy = subject.proxy ? await startProxy(urls[subject.interface], subject.proxy({ apiKey: own!.key, otherApiKey: other!.key })) : undefined;
  if (proxy) urls[subject.interface] = proxy.url;
  try {
    const profile = { ...referenceProfileFile({ apply: target.apply, urls }), ...(waitsMost(subject) ? { pollIntervalMs: WAITING_POLL_MS } : {}) };
    const request: RunRequest = {
      settings: { profileDocument: profile, seed: String(settings.seed), runs: String(settings.runs), ...(settings.budget ? { budget: settings.budget } : {}), ...extra },
      interfaces: subject.interface,
      ...(subject.scope ? { requirements: [subject.scope.join(',')] } : {}),
    };
    const bounds = { env: { APC_API_KEY: own!.key, APC_OTHER_API_KEY: other!.key }, timeoutMs: settings.timeoutMs, ...(settings.signal ? { signal: settings.signal } : {}) };
    return await certifyInProcess(request, bounds, { allure: false, workers: 1, ...(settings.batches ? { suites: settings.batches } : {}), ...run });
  } finally {
    await proxy?.close();
    await target.close();
  }
}

/**
 * The mutant again, on the property rules that caught it, under `seeds` seeds at the default
 * number of runs: in how many of them is it caught? A rule that failed by a check outside its
 * properties catches it in every seed. The first seed is the certification's own (the same seed
 * and runs): it is not run again, and caught when that certification failed one of the rules.
 */
async function detect(mutant: Mutant, requirements: string[], settings: RunSettings, first: RequirementResult[]): Promise<SubjectRun['detection']> {
  const ownSeedJudged = settings.runs === settings.detectionRuns;
  const run = await certifyBent({ ...mutant, scope: requirements }, { ...settings, runs: settings.detectionRuns }, { seeds: String(settings.seeds) }, { ownSeedJudged });
  const caught = new Set<number>();
  if (ownSeedJudged && first.some((r) => requirements.includes(r.id) && r.status === 'failed')) caught.add(0);
  for (const r of run.report?.requirements ?? []) {
    for (const seed of r.seeds?.caught ?? []) caught.add(seed);
    if (r.status === 'failed' && r.failures.some((f) => f.input === undefined)) for (let s = 0; s < settings.seeds; s++) caught.add(s);
  }
  return { requirements, seeds: settings.seeds, caught: [...caught].sort((a, b) => a - b) };
}

async function runHostile(subject: HostileTarget, signal: AbortSignal | undefined): Promise<SubjectRun> {
  const target = await subject.start();
  const flag = { 'control-plane': '--control-plane-url', 'agent-server': '--agent-server-url', 'experiment-upload': '--tracing-url' }[subject.interface];
  try {
    // Killed a little after its bound, so a run that overstays is measured, not left running.
    const run = await certifyChild({
      args: [
        flag, target.url,
        '--interfaces', subject.interface,
        ...(target.tenantId ? ['--tenant-id', target.tenantId] : []),
        ...(subject.scope ? ['--requirements', subject.scope.join(',')] : []),
        // The bounds are those of an unbudgeted run: a budget (the default for a URL) runs the
        // control plane on one worker, so its failing properties shrink one after another.
        '--budget', 'none',
      ],
      profile: { fixtures: { graphId: 'echo', failingGraphId: 'fail' } },
      env: { APC_API_KEY: target.apiKey ?? 'apc-selftest-hostile' },
      timeoutMs: subject.boundMs + 30_000,
      ...(signal ? { signal } : {}),
    });
    return { ...outcomeOf(subject, run), boundMs: subject.boundMs };
  } finally {
    await target.close();
  }
}

function outcomeOf(subject: Subject, run: ChildCertifyRun): SubjectRun {
  const requirements = run.report?.requirements ?? [];
  const judged = (status: string) =>
    requirements
      .filter((r) => r.status === status)
      .map((r) => ({ id: r.id, level: r.level, message: r.failures[0]?.message ?? (r.blockedBy ? `blocked by ${r.blockedBy.join(', ')}` : '') }));
  return {
    id: subject.id,
    kind: subject.kind,
    what: subject.what,
    interface: subject.interface,
    code: run.code,
    verdict: run.report?.verdict,
    durationMs: run.durationMs,
    failed: judged('failed'),
    blocked: judged('blocked'),
    ...(run.report ? {} : { error: (run.stderr.trim() || `apc certify ended with code ${run.code} and wrote no report`).split('\n').slice(-5).join('\n') }),
  };
}
