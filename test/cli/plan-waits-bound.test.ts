// The plan's revision waits bound what a run waits. A control-plane certification of the reference
// by URL with slow revisions (phases of 500 ms: a revision of 3 s) takes longer than one with
// quick revisions (20 ms phases) by the revision waits it makes one after another: that difference
// over the revision time added is what the run waited, in revisions. `apc certify --plan` for the
// same target at 3 s per revision must not count fewer, once as the reference is (it accepts a
// PATCH while a revision is in progress) and once refusing it (busy-deployments). The machine is
// shared and one run's wall time moves with its load: the measured waits may reach twice the plan's
// before the test fails (bench/revision-waits.ts measures the slope itself, in rounds). At load 9
// to 10 on 2 cores the runs waited 0.6 to 1.6 revisions (the plan counts 3) and 4.3 to 4.9 (the
// plan counts 5.3), with the quick run taking 5 to 6 s: twice the plan leaves 14 s and more of the
// load's noise. The runs go inside this process: a child's start (and the CLI's bundling after a
// change of the sources) added seconds to the quick run alone.
import { describe, expect, test } from 'vitest';
import { referenceProfileFile, startReferenceTarget } from '../../harness/reference/reference-target.ts';
import { certifyHere, type CertifyRun } from '../support/certify.ts';

/** A revision of the reference is six phases (reference-impl/control-plane/revision-lifecycle.ts). */
const revisionSeconds = (phaseMs: number) => (6 * phaseMs) / 1000;
const QUICK_MS = 20;
const SLOW_MS = 500;
/**
 * Polls a twentieth of a revision apart, never closer than the reference's own 20 ms: 150 ms for the
 * slow runs. A wait may so end up to 5% of a revision late, which counts against the plan (the test
 * only gets stricter). At 20 ms each 3 s wait of the refusing run polled 150 times: the run took
 * 10.9 s of CPU, against 8.4 s at 150 ms.
 */
const pollMs = (phaseMs: number) => Math.max(20, (revisionSeconds(phaseMs) * 1000) / 20);

async function certifyAt(phaseMs: number, refuses: boolean, args: string[] = []): Promise<CertifyRun> {
  const target = await startReferenceTarget({ mode: 'hosted', phaseMs, ...(refuses ? { platformLike: { behaviours: ['busy-deployments'] } } : {}) });
  try {
    const [own, other] = target.grants;
    // Inside this process, with the suite workers the run chooses, as a user's run gets them.
    return await certifyHere(
      {
        profile: referenceProfileFile(target),
        args: ['--interfaces', 'control-plane', '--seed', '1', '--poll-interval-ms', String(pollMs(phaseMs)), ...args],
        env: { APC_API_KEY: own!.key, APC_OTHER_API_KEY: other!.key },
        timeoutMs: 600_000,
      },
      {},
    );
  } finally {
    await target.close();
  }
}

/** The plan's revision waits, in seconds, for a target answering `answer` (its printed wall time line). */
function plannedSeconds(stdout: string, answer: 'accepts' | 'refuses'): number {
  const found = new RegExp(`about ([\\d.]+) s on a target that ${answer}`).exec(stdout);
  if (!found) throw new Error(`no planned wait for a target that ${answer} in:\n${stdout}`);
  return Number(found[1]);
}

describe('the plan bounds the revision waits of a control-plane certification of the reference', () => {
  let quick: CertifyRun;

  test.each([
    ['accepts', false],
    ['refuses', true],
  ] as const)('on a target that %s a PATCH while a revision is in progress', async (answer, refuses) => {
    quick ??= await certifyAt(QUICK_MS, false);
    expect(quick.report?.verdict, quick.stdout.slice(-2000)).toBe('certified');
    const slow = await certifyAt(SLOW_MS, refuses);
    expect(slow.report?.verdict, slow.stdout.slice(-2000)).toBe('certified');
    const plan = await certifyAt(SLOW_MS, refuses, ['--plan', '--revision-time', `${revisionSeconds(SLOW_MS)}s`]);
    expect(plan.code, plan.stdout).toBe(0);
    const planned = plannedSeconds(plan.stdout, answer) / revisionSeconds(SLOW_MS);
    const waited = (slow.durationMs - quick.durationMs) / 1000 / (revisionSeconds(SLOW_MS) - revisionSeconds(QUICK_MS));
    expect(waited, `waited ${waited.toFixed(2)} revisions one after another; the plan counts ${planned}`).toBeLessThanOrEqual(2 * planned);
    // The slow revisions were waited for: the lifecycle rules wait for at least one.
    expect(slow.durationMs).toBeGreaterThan(revisionSeconds(SLOW_MS) * 1000);
  }, 900_000);
});
