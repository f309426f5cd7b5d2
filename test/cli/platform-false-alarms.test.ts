// Each false alarm seen against targets that behave like the real hosted platform (issue "Certify a
// real platform"), against the reference with that one behaviour switched on: the requirements that
// failed then must pass now. Each test would fail again if the harness went back to mistaking the
// platform's environment for a deviation.
import { expect, test } from 'vitest';
import { certifyHere, keptSuiteWorkers, type CertifyRun } from '../support/certify.ts';

/**
 * Two lanes of suite workers kept from run to run for the four certifications below: two go side
 * by side, the others follow as a lane frees (each mostly waits, so a second lane halves the wall
 * time; a third and fourth worker cost their start and saved little).
 */
const suites = keptSuiteWorkers(2);

/** `apc certify`, inside this process, of the reference it starts with platform-like behaviours on. */
const certifyPlatformLike = (behaviours: string, timeScale: number, requirements: string[]) =>
  certifyHere({ args: ['--reference-platform-like', behaviours, '--reference-time-scale', String(timeScale), '--requirements', requirements.join(','), '--runs', '5'], timeoutMs: 300_000 }, suites);

/** Every selected requirement passed, and the run certified what it selected. */
function expectAllPassed(run: CertifyRun, requirements: string[]): void {
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.code, output).toBe(0);
  for (const id of requirements) expect(`${id} ${run.status(id)}`, run.result(id)?.failures[0]?.message ?? output).toBe(`${id} passed`);
}

// The tests go side by side (each starts its own reference): they mostly wait on Retry-After and
// slow builds.
test.concurrent('asynchronous deletion: DELETE 204, then AWAITING_DELETE in GET and the listing for a few seconds, then 404, passes CP-DEL-002', async () => {
  const requirements = ['CP-DEL-001', 'CP-DEL-002', 'CP-DEL-003', 'CP-DEL-005'];
  expectAllPassed(await certifyPlatformLike('async-delete', 1, requirements), requirements);
}, 320_000);

test.concurrent('busy deployments: revision phases of 150 ms and a 409 for a revision-creating PATCH while one is in progress fail none of the MUSTs that PATCH', async () => {
  const requirements = ['CP-PATCH-001', 'CP-REV-002', 'CP-REV-003', 'CP-REV-004', 'CP-REV-006', 'CP-REV-008', 'CP-APPL-007', 'CP-TAG-003', 'CP-TAR-002', 'CP-UPL-002'];
  const run = await certifyPlatformLike('busy-deployments,slow-builds', 0.1, requirements);
  expectAllPassed(run, requirements);
}, 320_000);

/** Answers 429 or 503 the run waited out, over every interface. */
function waitedOut(run: CertifyRun, kind: 'throttled' | 'unavailable'): number {
  return Object.values(run.report?.transient ?? {}).reduce((sum, counts) => sum + (counts?.[kind] ?? 0), 0);
}

test.concurrent('throttling: 429 {"detail":"Rate limit exceeded"} with Retry-After past 15 requests of a key in a window fails none of the requirements it failed before', async () => {
  const requirements = ['CP-CREATE-001', 'CP-TAG-002', 'CP-ERR-001', 'CP-ERR-008', 'AS-ASST-001', 'AS-THR-001', 'AS-DOCS-001', 'EU-REQ-001', 'EU-DS-002'];
  // Windows of 2 s: 7.5 requests a second per key, so the run is surely throttled.
  const run = await certifyPlatformLike('throttle', 2, requirements);
  expectAllPassed(run, requirements);
  expect(waitedOut(run, 'throttled'), run.stdout).toBeGreaterThan(0);
}, 320_000);

test.concurrent('transient errors: a GET now and then answered 503 {"detail":"Service temporarily unavailable"} with Retry-After: 1 fails none of the requirements it failed before', async () => {
  const requirements = ['CP-READ-001', 'CP-REVL-001', 'CP-TEN-001'];
  const run = await certifyPlatformLike('transient-errors', 1, requirements);
  expectAllPassed(run, requirements);
  // Seed 1 answers the control plane's 7th GET with 503 (reference-impl/platform-like/transient-errors.ts).
  expect(waitedOut(run, 'unavailable'), run.stdout).toBeGreaterThan(0);
}, 320_000);

test.concurrent('bare 503s: a GET now and then answered 503 by a load balancer, with no Retry-After, fails none of EU-STAT-002, CP-REVL-001, CP-AUTH-001 (which it failed before)', async () => {
  const requirements = ['EU-STAT-002', 'CP-REVL-001', 'CP-AUTH-001'];
  const run = await certifyPlatformLike('bare-503s,slow-builds', 0.1, requirements);
  expectAllPassed(run, requirements);
  expect(waitedOut(run, 'unavailable'), run.stdout).toBeGreaterThan(0);
}, 320_000);
