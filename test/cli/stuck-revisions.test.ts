// A revision that never ends (it reaches BUILDING and never moves again, as a real platform's
// builds sometimes do) fails the rule that waited for it when the deploy timeout passes, and the
// run writes its report then, not after one timeout per revision: the waits of the run overlap
// (issue "Certify a real platform"). A property stops at the first case that waited the timeout
// out (harness/conformance/check.ts), and where revisions may take time each suite file gets a
// worker of its own (harness/run/workers.ts). The runs go inside this process, with the suite
// workers the run chooses, as a user's run gets them.
import { expect, test } from 'vitest';
import { referenceProfileFile, startReferenceTarget } from '../../harness/reference/reference-target.ts';
import { certifyHere, type CertifyRun } from '../support/certify.ts';

/** The report came within the bound, and CP-LIFE-001 failed naming the stuck status. */
function expectStuckReport(run: CertifyRun, deployMs: number, boundMs: number): string {
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.report, output).toBeDefined();
  expect(run.durationMs, output).toBeLessThan(boundMs);
  expect(run.code, output).toBe(1);
  expect(run.status('CP-LIFE-001'), output).toBe('failed');
  expect(run.result('CP-LIFE-001')?.failures[0]?.message, output).toMatch(new RegExp(`did not end within the deploy timeout \\(${deployMs} ms\\); its last status was "BUILDING"`));
  return output;
}

/**
 * Polls a twentieth of the deploy timeout apart, not the reference's 20 ms: a wait for a stuck
 * revision then asks 20 times, not hundreds, and still gives up by the deploy timeout (a poll
 * interval before it at the earliest), so the bounds below hold as before.
 */
const pollMs = (deployMs: number) => deployMs / 20;

test('every revision stuck: the revision lifecycle rules fail sooner than their three deploy timeouts one after another, with a report naming the stuck status', async () => {
  const deployMs = 10_000;
  // The lifecycle rules take a few seconds on the plain reference (the run took 1 to 2 s beyond the
  // deploy timeout at loads of 2 to 9); waited one after another, their three tests would take three
  // deploy timeouts or more: the bound.
  const marginMs = 2 * deployMs;
  const run = await certifyHere(
    {
      args: ['--reference-fault', 'cp.revision-stuck', '--requirements', 'CP-LIFE-*', '--deploy-timeout-ms', String(deployMs), '--poll-interval-ms', String(pollMs(deployMs)), '--runs', '5'],
      // Stopped a little past the bound, so a run that overstays is measured, not waited for.
      timeoutMs: deployMs + marginMs + 30_000,
    },
    {},
  );
  expectStuckReport(run, deployMs, deployMs + marginMs);
}, 120_000);

/**
 * The whole control plane, by URL as a real platform is certified, on a target that also refuses
 * PATCHes while a revision is in progress (as the real platform's docs say): every PATCH then
 * waits the whole deploy timeout first, 90 tests' worth of waits. The margin beyond the deploy
 * timeout is the run's own work (about 15 s on two idle cores: the harness's start, a worker per
 * suite file, 800 requests) with room for a loaded machine (35 s measured with a load average of
 * 30 on 2 cores). Waited one after another, the same run took 5 min with a deploy timeout of 8 s:
 * at the 4 s here, half of that is still past the bound.
 */
test('every revision stuck, every PATCH waiting for it: the whole control plane reports within one deploy timeout plus 90 s; CP-LIFE-001 fails, unrelated rules do not', async () => {
  const deployMs = 4_000;
  const marginMs = 90_000;
  const target = await startReferenceTarget({ mode: 'hosted', faults: ['cp.revision-stuck'], platformLike: { behaviours: ['busy-deployments'] } });
  try {
    const [own, other] = target.grants;
    const run = await certifyHere(
      {
        // --concurrency 16 leaves a worker to each of the 14 control-plane suite files.
        profile: { ...referenceProfileFile(target), concurrency: 16, pollIntervalMs: pollMs(deployMs) },
        args: ['--interfaces', 'control-plane', '--seed', '1', '--deploy-timeout-ms', String(deployMs)],
        env: { APC_API_KEY: own!.key, APC_OTHER_API_KEY: other!.key },
        timeoutMs: deployMs + marginMs + 30_000,
      },
      {},
    );
    const output = expectStuckReport(run, deployMs, deployMs + marginMs);
    // One fault fails the rule it breaks: the PATCH rules are blocked by it, never failed, and rules that need no revision to end pass.
    const failed = run.report!.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed.filter((id) => !id.startsWith('CP-LIFE-')), output).toEqual([]);
    expect(run.status('CP-PATCH-001'), output).toBe('blocked');
    for (const id of ['CP-READ-001', 'CP-ERR-001', 'CP-CREATE-001', 'CP-DEL-001']) expect(run.status(id), `${id}\n${output}`).toBe('passed');
  } finally {
    await target.close();
  }
}, 200_000);
