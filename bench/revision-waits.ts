// How a control-plane certification's wall time grows with the revision time: the reference's
// revision phases at 20, 250 and 1,000 ms (a revision takes six phases), a default control-plane
// certification against each, by URL as a real platform is certified, and the slope of wall time
// over revision time (least squares): the revision waits one after another. Three times: against
// the reference as it is (it accepts a PATCH while a revision is in progress, as spec 3 reads),
// unbudgeted; the same within the default budget of a target given by URL (12 deployments, 40
// revisions: tests share pooled deployments, leased one test at a time); and against one that
// refuses such a PATCH (busy-deployments, as the real platform's docs say), where every PATCH
// first waits for the revision before it, unbudgeted, within the default budget, and within the
// budget `--plan` names as enough to spread the pooled deployments' tests (busy-spread). README
// "Cost of a certification".
//
// On a shared machine one run's wall time moves with the load of the moment by more than the
// revision time adds, so the settings are certified in rounds, interleaved (20, 250, 1,000, 20,
// ...), and the line is fitted through each setting's median: a spell of load then touches one
// run of each setting, not every run of one. The load average before each run is kept beside it.
import { loadavg } from 'node:os';
import { referenceProfileFile, startReferenceTarget } from '../harness/reference/reference-target.ts';
import { certifyChild } from '../harness/selftest/certify-child.ts';
import { REMOTE_BUDGET } from '../harness/profile/profile.ts';
import { round } from './support/load.ts';
import { WAIT_TARGETS, type WaitTarget } from './wait-targets.ts';
import { createdText } from '../harness/conformance/created.ts';

/** Revision phases of the reference (reference-impl/control-plane/revision-lifecycle.ts). */
const PHASES_PER_REVISION = 6;

/** One certification: its wall time and verdict, the 1-minute load average before it, and (under a budget) the deployments and revisions it created. */
export interface WaitRun {
  wallSeconds: number;
  verdict: string;
  load: number;
  created?: string;
}

export interface WaitPoint {
  phaseMs: number;
  revisionSeconds: number;
  /** The median of the runs' wall times: the point the line is fitted through. */
  wallSeconds: number;
  /** The runs of this setting, in the order they ran. */
  runs: WaitRun[];
}

export interface WaitSeries {
  points: WaitPoint[];
  /** Seconds of wall time per second of revision time. */
  slope: number;
  /** Seconds of wall time at a revision time of zero. */
  intercept: number;
}

export interface RevisionWaitFigures {
  /** Against the reference as it is, unbudgeted (the goal's figure). */
  accepting?: WaitSeries;
  /** The same within a target given by URL's default budget (12 deployments, 40 revisions). */
  budgeted?: WaitSeries;
  /** Against a target that refuses a revision-creating PATCH while a revision is in progress, unbudgeted. */
  busy?: WaitSeries;
  /** The same within the default budget: its slope against busy's is what a budget costs where the platform is busy (goal: at most 1.25 times). */
  'busy-budgeted'?: WaitSeries;
  /** The same within the budget `--plan` names as enough to spread the pooled deployments' tests (harness/budget/spread.ts). */
  'busy-spread'?: WaitSeries;
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The least-squares line through the points (x: revision seconds, y: wall seconds). */
export function fitLine(points: { revisionSeconds: number; wallSeconds: number }[]): { slope: number; intercept: number } {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.revisionSeconds, 0) / n;
  const my = points.reduce((s, p) => s + p.wallSeconds, 0) / n;
  const slope = points.reduce((s, p) => s + (p.revisionSeconds - mx) * (p.wallSeconds - my), 0) / points.reduce((s, p) => s + (p.revisionSeconds - mx) ** 2, 0);
  return { slope: round(slope), intercept: round(my - slope * mx) };
}

/** `rounds` rounds of every phase setting, interleaved; the line through each setting's median. */
export async function waitSeries(phases: number[], rounds: number, certify: (phaseMs: number) => Promise<WaitRun>): Promise<WaitSeries> {
  const runs = new Map<number, WaitRun[]>(phases.map((p) => [p, []]));
  for (let pass = 0; pass < rounds; pass++) for (const phaseMs of phases) runs.get(phaseMs)!.push(await certify(phaseMs));
  const points = phases.map((phaseMs) => ({
    phaseMs,
    revisionSeconds: (phaseMs * PHASES_PER_REVISION) / 1000,
    wallSeconds: round(median(runs.get(phaseMs)!.map((r) => r.wallSeconds))),
    runs: runs.get(phaseMs)!,
  }));
  return { points, ...fitLine(points) };
}

/** The default budget of a target given by URL, as a flag (the profile file of the reference says none). */
const URL_BUDGET = ['--budget', `deployments=${REMOTE_BUDGET.deployments},revisions=${REMOTE_BUDGET.revisions}`];

/** The budget `--plan` names as enough to spread the tests of the pooled deployments, for the default budget's target. */
async function spreadBudget(profile: Record<string, unknown>, env: Record<string, string>): Promise<string[]> {
  const plan = await certifyChild({ profile, args: ['--interfaces', 'control-plane', '--plan', ...URL_BUDGET], env, timeoutMs: 300_000 });
  const named = /no room to spread them over more pooled deployments: .*?\(--budget (deployments=\d+,revisions=\d+),/.exec(plan.stdout);
  return named ? ['--budget', named[1]!] : URL_BUDGET;
}

async function budgetOf(kind: WaitTarget, profile: Record<string, unknown>, env: Record<string, string>): Promise<string[]> {
  if (kind === 'busy-spread') return spreadBudget(profile, env);
  return kind === 'budgeted' || kind === 'busy-budgeted' ? URL_BUDGET : [];
}

async function certifyAt(phaseMs: number, kind: WaitTarget): Promise<WaitRun> {
  const busy = kind.startsWith('busy');
  const target = await startReferenceTarget({ mode: 'hosted', phaseMs, ...(busy ? { platformLike: { behaviours: ['busy-deployments'] } } : {}) });
  try {
    const [own, other] = target.grants;
    const profile = referenceProfileFile(target);
    const env = { APC_API_KEY: own!.key, APC_OTHER_API_KEY: other!.key };
    const budget = await budgetOf(kind, profile, env);
    const load = round(loadavg()[0]!, 1);
    const run = await certifyChild({ profile, args: ['--interfaces', 'control-plane', '--seed', '1', '--quiet', ...budget], env, timeoutMs: 900_000 });
    const created = run.report?.cost?.created['control-plane'];
    return {
      wallSeconds: round(run.durationMs / 1000),
      verdict: run.report?.verdict ?? `no report (exit ${run.code})`,
      load,
      ...(budget.length > 0 && created ? { created: `${createdText(created)} (${budget[1]})` } : {}),
    };
  } finally {
    await target.close();
  }
}

/**
 * `rounds` interleaved rounds of each of `targets`: against the reference as it is, unbudgeted
 * (the goal's figure) and budgeted; the target that refuses PATCHes while busy, whose runs are
 * minutes, gets one round less (at least one).
 */
export async function revisionWaits(phases: number[], rounds: number, targets: readonly WaitTarget[] = WAIT_TARGETS): Promise<RevisionWaitFigures> {
  const figures: RevisionWaitFigures = {};
  for (const kind of targets)
    figures[kind] = await waitSeries(phases, kind.startsWith('busy') ? Math.max(1, rounds - 1) : rounds, (phaseMs) => certifyAt(phaseMs, kind));
  return figures;
}
