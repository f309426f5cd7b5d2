// A revision that never ends (it reaches BUILDING and never moves again, as a real platform's
// builds sometimes do) fails the rule that waited for it when the deploy timeout passes, and the
// run writes its report then, not after one timeout per revision: the waits of the revision
// lifecycle rules overlap (issue "Certify a real platform").
import { expect, test } from 'vitest';
import { certify } from '../support/certify.ts';

const DEPLOY_MS = 20_000;
/** The lifecycle rules take a few seconds on the plain reference; waited one after another they would take four deploy timeouts. */
const MARGIN_MS = 40_000;

test('every revision stuck: the revision lifecycle rules fail within one deploy timeout plus 40 s, with a report naming the stuck status', async () => {
  const run = await certify({
    args: ['--reference-fault', 'cp.revision-stuck', '--requirements', 'CP-LIFE-*', '--deploy-timeout-ms', String(DEPLOY_MS), '--runs', '5'],
    // Killed a little past the bound, so a run that overstays is measured, not waited for.
    timeoutMs: DEPLOY_MS + MARGIN_MS + 30_000,
  });
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.report, output).toBeDefined();
  expect(run.durationMs, output).toBeLessThan(DEPLOY_MS + MARGIN_MS);
  expect(run.code, output).toBe(1);
  expect(run.status('CP-LIFE-001'), output).toBe('failed');
  expect(run.result('CP-LIFE-001')?.failures[0]?.message, output).toMatch(/did not end within the deploy timeout \(20000 ms\); its last status was "BUILDING"/);
}, DEPLOY_MS + MARGIN_MS + 60_000);
