// A hostile or hanging target gets a clear verdict and a report, never a hung run: each run below
// ends within the bound, with a compliance.json and a junit.xml. The deadlines are given shorter
// than the defaults (1.5 s per request and per stream, not 10 s and 15 s), so the runs wait a
// seventh as long; still longer than the dripping server's 200 ms between bytes, so only a deadline
// on the whole body ends its answers. apc selftest certifies the same targets with the default
// deadlines, to their bound (harness/selftest/hostile.ts). What this file holds beyond that is what
// each report says. The runs go inside this process (`certifyHere`): none of these tests is about
// the process itself.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { certifyHere, keptSuiteWorkers, type CertifyRun } from '../support/certify.ts';
import { drippingServer, endlessBodyServer, garbageServer, hugeBodyServer, refusingPort, resettingServer, silentServer, type Hostile } from '../../harness/selftest/hostile-servers.ts';

const requestMs = 1_500;
const deadlines = ['--request-timeout-ms', String(requestMs), '--stream-timeout-ms', String(requestMs)];
/**
 * The bound, 60 s for the default deadlines, kept for deadlines a seventh as long: a run
 * that waited a deadline per request (hundreds of requests) would still take minutes, and the run's
 * own work (its start, the preflight, a suite worker) has room on a loaded machine.
 */
const BOUND_MS = 60_000;

// The runs share a suite worker, kept from run to run (its start is no part of any bound).
const suites = keptSuiteWorkers();
const servers: Hostile[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});
async function started(server: Promise<Hostile>): Promise<string> {
  const s = await server;
  servers.push(s);
  return s.url;
}

/**
 * Unbudgeted, as apc selftest bounds these targets (harness/selftest/run-subject.ts): a budget, a
 * URL's default, collects the suites' tests once more before the run and starts a pool of
 * deployments (about 0.6 s of CPU a run). `budgeted` keeps the default, for the silent target: a
 * budgeted run, its pool creating deployments on a target that never answers, ends within the bound too.
 */
async function timedCertify(args: string[], budgeted = false): Promise<CertifyRun & { ms: number }> {
  const start = performance.now();
  const run = await certifyHere({ args: [...deadlines, ...(budgeted ? [] : ['--budget', 'none']), ...args], keepReports: true, timeoutMs: 3 * BOUND_MS }, suites);
  const ms = performance.now() - start;
  return { ...run, ms };
}

/** The run left compliance.json with `verdict` and a junit.xml; the report folder is removed after. */
function expectReport(run: CertifyRun, verdict: string): string {
  try {
    expect(run.report?.verdict, run.stderr).toBe(verdict);
    expect(existsSync(join(run.reportDir, 'junit.xml'))).toBe(true);
    return readFileSync(join(run.reportDir, 'junit.xml'), 'utf8');
  } finally {
    rmSync(run.reportDir, { recursive: true, force: true });
  }
}

const both = (url: string) => ['--control-plane-url', url, '--agent-server-url', url, '--api-key', 'k-hostile'];

// One run at a time: each asserts the product's wall-clock bound, and side by side on two cores
// their CPU (certify starts, a 10 MB body, a byte at a time) pushed runs past it.
describe('targets the harness cannot reach: exit 2 and a report with verdict error', { timeout: 4 * BOUND_MS }, () => {
  test('nothing listens (connection refused)', async () => {
    const run = await timedCertify(both(await refusingPort()));
    expect(run.code).toBe(2);
    expect(run.ms).toBeLessThan(BOUND_MS);
    const junit = expectReport(run, 'error');
    expect(run.report!.errors.join('\n')).toMatch(/the control-plane at .*: GET \/v2\/deployments answered nothing: connection refused \(nothing listens there\)/);
    expect(junit).toMatch(/<failure|<error/);
  });

  // A target that accepts connections is judged, not blamed on the setup (the preflight counts it
  // as listening): the run ends within the bound, failing what got no answer.
  test('accepts connections and never answers', async () => {
    const run = await timedCertify(both(await started(silentServer())), true);
    expect(run.code, run.stderr).toBe(1);
    expect(run.ms).toBeLessThan(BOUND_MS);
    expectReport(run, 'not-certified');
    expect(JSON.stringify(run.report!.requirements)).toMatch(/no (complete )?(answer|response) within \d+ ms|not sent: the last/);
  });

  test('resets every connection', async () => {
    const run = await timedCertify(both(await started(resettingServer())));
    expect([1, 2]).toContain(run.code);
    expect(run.ms).toBeLessThan(BOUND_MS);
    expect(JSON.stringify(run.report)).toMatch(/ECONNRESET|socket hang up|other side closed/i);
    expect(existsSync(join(run.reportDir, 'junit.xml'))).toBe(true);
  });
});

describe('targets that answer badly: a verdict within the bound', { timeout: 4 * BOUND_MS }, () => {
  test('garbage: HTML, broken JSON and bodies cut short', async () => {
    const run = await timedCertify([...both(await started(garbageServer())), '--requirements', 'CP-READ-*,CP-CREATE-001,AS-ASST-001,AS-SSE-001']);
    // The preflight sees a URL that does not serve the interface: the setup, exit 2, with a report.
    expect(run.code, run.stderr).toBe(2);
    expect(run.ms).toBeLessThan(BOUND_MS);
    expectReport(run, 'error');
    expect(run.report!.verdictReason).toMatch(/does not serve the control-plane|answered/);
  });

  test('a 10 MB body on every request', async () => {
    const run = await timedCertify([...both(await started(hugeBodyServer())), '--requirements', 'CP-READ-001,CP-CREATE-001,AS-ASST-001']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.ms).toBeLessThan(BOUND_MS);
    expectReport(run, 'not-certified');
  });

  test('a byte at a time: the request deadline covers the whole body, and after two the URL is given up', async () => {
    const run = await timedCertify([...both(await started(drippingServer())), '--requirements', 'CP-ERR-*,CP-READ-*,AS-ASST-*,AS-SSE-001']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.ms).toBeLessThan(BOUND_MS);
    const text = JSON.stringify(run.report?.requirements);
    expectReport(run, 'not-certified');
    expect(text).toContain(`no complete response within ${requestMs} ms`);
    expect(text).toMatch(/not sent: the last \d+ requests to http:\/\/127\.0\.0\.1:\d+ got no complete answer/);
  });

  test('a body that never ends is cut off at the size cap', async () => {
    const url = await started(endlessBodyServer());
    // CP-CREATE-* holds the check the cut-off body fails (CP-READ-001 is blocked by it).
    const run = await timedCertify(['--control-plane-url', url, '--api-key', 'k-hostile', '--requirements', 'CP-CREATE-*,CP-READ-001']);
    expect(run.code, run.stderr).toBe(1);
    const text = JSON.stringify(run.report?.requirements);
    expectReport(run, 'not-certified');
    expect(text).toMatch(/response body larger than \d+ bytes|no complete response/);
  });

  test('--max-time stops a run early: verdict interrupted, exit 130', async () => {
    // The reference with slow revision polling: only --max-time can end the lifecycle rules this early.
    const run = await timedCertify(['--poll-interval-ms', '5000', '--requirements', 'CP-LIFE-*', '--max-time', '4s']);
    expect(run.code, run.stderr).toBe(130);
    expect(run.ms).toBeLessThan(BOUND_MS);
    expectReport(run, 'interrupted');
    expect(run.report!.verdictReason).toContain('--max-time 4s');
    // No Ctrl-C was pressed: the hint does not say "again".
    expect(run.stderr).toContain('press Ctrl-C twice to exit at once');
    expect(run.stderr).not.toContain('Ctrl-C again');
  });
});
