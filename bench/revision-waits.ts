// How a control-plane certification's wall time grows with the revision time: the reference's
// revision phases at 20, 250 and 1,000 ms (a revision takes six phases), a default control-plane
// certification against each, by URL as a real platform is certified, and the slope of wall time
// over revision time (least squares): the revision waits one after another. Twice: against the
// reference as it is (it accepts a PATCH while a revision is in progress, as spec 3 reads), and
// against one that refuses it (busy-deployments, as the real platform's docs say), where every
// PATCH first waits for the revision before it. README "Cost of a certification".
import { referenceProfileFile, startReferenceTarget } from '../harness/reference/reference-target.ts';
import { certifyChild } from '../harness/selftest/certify-child.ts';
import { round } from './support/load.ts';

/** Revision phases of the reference (reference-impl/control-plane/revision-lifecycle.ts). */
const PHASES_PER_REVISION = 6;

export interface WaitSeries {
  runs: { phaseMs: number; revisionSeconds: number; wallSeconds: number; verdict: string }[];
  /** Seconds of wall time per second of revision time. */
  slope: number;
  /** Seconds of wall time at a revision time of zero. */
  intercept: number;
}

export interface RevisionWaitFigures extends WaitSeries {
  /** The same against a target that refuses a revision-creating PATCH while a revision is in progress. */
  busy: WaitSeries;
}

async function certifyAt(phaseMs: number, busy: boolean): Promise<WaitSeries['runs'][number]> {
  const target = await startReferenceTarget({ mode: 'hosted', phaseMs, ...(busy ? { platformLike: { behaviours: ['busy-deployments'] } } : {}) });
  try {
    const [own, other] = target.grants;
    const run = await certifyChild({
      profile: referenceProfileFile(target),
      args: ['--interfaces', 'control-plane', '--seed', '1', '--quiet'],
      env: { APC_API_KEY: own!.key, APC_OTHER_API_KEY: other!.key },
      timeoutMs: 900_000,
    });
    return { phaseMs, revisionSeconds: (phaseMs * PHASES_PER_REVISION) / 1000, wallSeconds: round(run.durationMs / 1000), verdict: run.report?.verdict ?? `no report (exit ${run.code})` };
  } finally {
    await target.close();
  }
}

async function series(phases: number[], busy: boolean): Promise<WaitSeries> {
  const runs = [];
  for (const phaseMs of phases) runs.push(await certifyAt(phaseMs, busy));
  const n = runs.length;
  const mx = runs.reduce((s, r) => s + r.revisionSeconds, 0) / n;
  const my = runs.reduce((s, r) => s + r.wallSeconds, 0) / n;
  const slope = runs.reduce((s, r) => s + (r.revisionSeconds - mx) * (r.wallSeconds - my), 0) / runs.reduce((s, r) => s + (r.revisionSeconds - mx) ** 2, 0);
  return { runs, slope: round(slope), intercept: round(my - slope * mx) };
}

export async function revisionWaits(phases: number[]): Promise<RevisionWaitFigures> {
  return { ...(await series(phases, false)), busy: await series(phases, true) };
}
