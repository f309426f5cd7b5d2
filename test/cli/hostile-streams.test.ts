// Agent servers whose event streams misbehave, and a target that answers 500 at random: the
// reference implementation behind a proxy that bends one thing. Each run ends with a report within
// the bound; after two streams from one URL pass their deadline the rest fail at once, naming the
// URL. The stream deadline is given shorter than the default (2.5 s, not 15 s), so the runs wait a
// sixth as long; still longer than the second between the endless streams' comments, so only a
// deadline on the whole stream ends them. apc selftest certifies the same targets with the default
// deadlines, to their bound (harness/selftest/hostile.ts). The runs go inside this process: none of
// these tests is about the process itself.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { certifyHere, keptSuiteWorkers, type CertifyRun } from '../support/certify.ts';
import { startTarget, type Reference } from '../support/reference-target.ts';
import { stallAfterFirstEvent } from '../../harness/selftest/hostile.ts';
import { startProxy, type ProxiedAnswer, type Proxy } from '../../harness/proxy/proxy.ts';

const streamMs = 2_500;
/**
 * The bound, 60 s for the default stream deadline (15 s), kept for a deadline a sixth as
 * long: a run that waited a deadline per stream (a run of the agent server sends about a hundred)
 * would still take minutes.
 */
const BOUND_MS = 60_000;

let target: Reference;
// The two stream runs go side by side: two lanes of suite workers kept from run to run.
const suites = keptSuiteWorkers(2);
const proxies: Proxy[] = [];
beforeAll(async () => {
  target = await startTarget();
});
afterAll(async () => {
  for (const p of proxies) await p.close();
  await target?.close();
});

const isStream = (a: ProxiedAnswer) => /text\/event-stream/.test(a.headers['content-type'] ?? '');

async function proxied(upstream: string, rules: Parameters<typeof startProxy>[1]): Promise<string> {
  const proxy = await startProxy(upstream, rules);
  proxies.push(proxy);
  return proxy.url;
}

async function run(args: string[]): Promise<CertifyRun & { ms: number }> {
  const start = performance.now();
  const result = await certifyHere({
    args: [...args, '--api-key', target.apiKey, '--stream-timeout-ms', String(streamMs)],
    // The reference behind the proxy is free: unbudgeted, as when the harness starts it.
    profile: { fixtures: { graphId: 'echo', failingGraphId: 'fail' }, budget: {} },
    keepReports: true,
    timeoutMs: 3 * BOUND_MS,
  }, suites);
  const ms = performance.now() - start;
  expect(existsSync(join(result.reportDir, 'junit.xml'))).toBe(true);
  rmSync(result.reportDir, { recursive: true, force: true });
  return { ...result, ms };
}

describe('hostile streams and random errors', { timeout: 4 * BOUND_MS }, () => {
  // The two stream runs go side by side (each has its own proxy): they mostly wait out stream
  // deadlines. The run with 500s works the CPU: it runs after them, alone in this file.
  test.concurrent('streams that never end (a comment every second): a run of the whole agent server ends within the bound', async () => {
    const url = await proxied(target.server.urls.agentServer, {
      holdOpen: (a) => (isStream(a) ? { every: { ms: 1_000, text: ': still here\n\n' } } : undefined),
    });
    const result = await run(['--agent-server-url', url]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.report?.verdict).toBe('not-certified');
    expect(result.ms).toBeLessThan(BOUND_MS);
    const text = JSON.stringify(result.report!.requirements);
    expect(text).toContain(`stream still open after ${streamMs} ms`);
    expect(text).toContain(`streams to ${url} passed their deadline`);
    expect(text).toMatch(/not sent: the last \d+ streams to/);
    // Rules that read no stream are still judged on their merits.
    expect(result.status('AS-ASST-001')).toBe('passed');
  });

  test.concurrent('streams that stall after the first event', async () => {
    const url = await proxied(target.server.urls.agentServer, stallAfterFirstEvent());
    const result = await run(['--agent-server-url', url, '--requirements', 'AS-SSE-*,AS-RUN-*']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.ms).toBeLessThan(BOUND_MS);
    const text = JSON.stringify(result.report!.requirements);
    expect(text).toContain(`stream still open after ${streamMs} ms`);
    expect(text).toMatch(/not sent: the last \d+ streams to .* passed their deadline/);
  });

  test('500 at random: failures where the target failed, a verdict within the bound', async () => {
    let n = 0;
    const url = await proxied(target.server.urls.controlPlane, {
      // Every third request, deterministic so the test does not depend on chance.
      request: (r) => (++n % 3 === 0 ? { status: 500, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"detail":"Internal Server Error"}') } : r),
    });
    // The create properties too: their cleanup once waited a poll interval (5 s) after each read
    // the target failed, one deletion after another, and took minutes.
    const result = await run(['--control-plane-url', url, '--tenant-id', target.server.tenantId, '--requirements', 'CP-CREATE-*,CP-READ-*,CP-ERR-*']);
    expect([0, 1]).toContain(result.code);
    expect(result.ms).toBeLessThan(BOUND_MS);
    expect(JSON.stringify(result.report!.requirements)).toContain('500');
  });
});
