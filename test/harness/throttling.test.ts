// The HTTP client waits out throttling (429) and transient errors (503; one without Retry-After a
// few times, within the request deadline) and sends the request again; only the final answer is recorded. A create or PATCH goes again after a 503
// only once it is known not to have taken effect. Against a small real server that refuses as told.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { InterfaceClient, Recorder } from '../../harness/http/client.ts';
import { Limiter } from '../../harness/http/limiter.ts';
import { BARE_503_ANSWERS, TargetKeptRefusing, waitMs } from '../../harness/http/throttling.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';

interface Refusal {
  status: number;
  retryAfter?: string;
}

/** A server that answers each request with the next refusal of the script, then 200 (a POST: 201). */
async function refusingServer(script: Refusal[]): Promise<{ url: string; seen: string[]; server: Server }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const refusal = script.shift();
    if (refusal) {
      res.writeHead(refusal.status, { 'content-type': 'application/json', ...(refusal.retryAfter !== undefined ? { 'retry-after': refusal.retryAfter } : {}) });
      return res.end(JSON.stringify({ detail: refusal.status === 429 ? 'Rate limit exceeded' : 'Service temporarily unavailable' }));
    }
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const servers: Server[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function client(url: string, options: { throttleMs?: number; throwWhenRefused?: boolean; requestMs?: number } = {}) {
  const profile = defaultProfile();
  profile.timeouts.throttleMs = options.throttleMs ?? 30_000;
  if (options.requestMs !== undefined) profile.timeouts.requestMs = options.requestMs;
  const recorder = new Recorder();
  return { recorder, cp: new InterfaceClient('control-plane', url, profile, recorder, new Limiter(4), { throwWhenRefused: options.throwWhenRefused ?? true }) };
}

describe('waiting out refusals', () => {
  test('429s are waited out as Retry-After says and only the final answer is recorded and counted as waited', async () => {
    const target = await refusingServer([{ status: 429, retryAfter: '0' }, { status: 429, retryAfter: '0' }]);
    const { cp, recorder } = client(target.url);
    const answer = await cp.get('/v2/deployments');
    expect(answer.response?.status).toBe(200);
    expect(target.seen).toHaveLength(3);
    expect(recorder.exchanges.map((e) => e.response?.status)).toEqual([200]);
    expect(recorder.transient['control-plane']).toMatchObject({ throttled: 2, unavailable: 0, gaveUp: 0 });
  });

  test('a 429 to a POST is sent again: the request was not processed', async () => {
    const target = await refusingServer([{ status: 429, retryAfter: '0' }]);
    const { cp } = client(target.url);
    expect((await cp.post('/v2/deployments', { name: 'a' })).response?.status).toBe(201);
    expect(target.seen).toEqual(['POST /v2/deployments', 'POST /v2/deployments']);
  });

  test('a 503 with Retry-After to a GET is sent again, and so is one without it (a load balancer\'s own answer), after a backoff', async () => {
    const target = await refusingServer([{ status: 503, retryAfter: '0' }, { status: 503 }]);
    const { cp, recorder } = client(target.url);
    const started = Date.now();
    expect((await cp.get('/v2/deployments')).response?.status).toBe(200);
    expect(target.seen).toHaveLength(3);
    // The bare 503 waited a step of the backoff (at least 1 s): Retry-After said nothing.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(recorder.exchanges.map((e) => e.response?.status)).toEqual([200]);
    expect(recorder.transient['control-plane']).toMatchObject({ unavailable: 2, gaveUp: 0 });
  });

  test('a bare 503 that persists is given up after a few answers within the request deadline: the target is unavailable, never a rule failure', async () => {
    const target = await refusingServer(Array.from({ length: 20 }, () => ({ status: 503 })));
    const inTest = client(target.url);
    const error = await inTest.cp.get('/v2/deployments').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetKeptRefusing);
    expect((error as TargetKeptRefusing).why).toMatch(/^the target was unavailable: 4 answer\(s\) 503 without Retry-After to GET \/v2\/deployments over [\d.]+ s/);
    // Backoff of 1, 2 and 4 s: 7 s within the default request deadline of 10 s.
    expect(target.seen).toHaveLength(BARE_503_ANSWERS);
    expect(inTest.recorder.transient['control-plane']).toMatchObject({ unavailable: BARE_503_ANSWERS, gaveUp: 1, waitedMs: 7_000 });
  }, 30_000);

  test('a bare 503 after 429s is tried again from its own first step: the 429s, waited out as asked, do not count among its answers', async () => {
    // The platform-like reference's throttling and load-balancer blips meet on one GET now and
    // then; counted together, three 429s and one blip gave the GET up as unavailable.
    const target = await refusingServer([{ status: 429, retryAfter: '0' }, { status: 429, retryAfter: '0' }, { status: 429, retryAfter: '0' }, { status: 503 }]);
    const { cp, recorder } = client(target.url);
    const started = Date.now();
    const answer = await cp.get('/v2/deployments');
    expect(answer.response?.status).toBe(200);
    expect(target.seen).toHaveLength(5);
    expect(recorder.transient['control-plane']).toMatchObject({ throttled: 3, unavailable: 1, gaveUp: 0 });
    // One step of the backoff (1 s), not the fourth (8 s).
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  test('a bare 503 stops being tried again at the request deadline', async () => {
    const target = await refusingServer(Array.from({ length: 20 }, () => ({ status: 503 })));
    const { cp, recorder } = client(target.url, { requestMs: 2_500 });
    const started = Date.now();
    const answer = await cp.get('/v2/deployments').catch((e: unknown) => e);
    expect(answer).toBeInstanceOf(TargetKeptRefusing);
    // 1 s of backoff, then the 2 s step would pass the profile's request deadline of 2.5 s.
    expect(target.seen).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(recorder.transient['control-plane']).toMatchObject({ unavailable: 2, gaveUp: 1 });
  });

  test('a bare 503 to a POST that is not a search is not sent again without knowing whether it took effect', async () => {
    const target = await refusingServer([{ status: 503 }]);
    const { cp } = client(target.url);
    await expect(cp.post('/v2/deployments', { name: 'a' })).rejects.toThrow(/cannot be sent again without knowing whether it took effect/);
    expect(target.seen).toHaveLength(1);
  });

  test('a 503 to a create is sent again only after it is known not to have taken effect', async () => {
    const target = await refusingServer([{ status: 503, retryAfter: '0' }]);
    const { cp } = client(target.url);
    const asked: string[] = [];
    const answer = await cp.post('/v2/deployments', { name: 'a' }, { tookEffect: async () => (asked.push('looked up'), false) });
    expect(answer.response?.status).toBe(201);
    expect(asked).toEqual(['looked up']);
    expect(target.seen).toHaveLength(2);
  });

  test('a 503 to a create that took effect is not sent again: the test cannot judge, and says why', async () => {
    const target = await refusingServer([{ status: 503, retryAfter: '0' }]);
    const { cp } = client(target.url);
    await expect(cp.post('/v2/deployments', { name: 'a' }, { tookEffect: async () => true })).rejects.toThrow(/took effect: its answer is lost/);
    expect(target.seen).toHaveLength(1);
  });

  test('a 503 to a PATCH that cannot tell whether it took effect is not sent again', async () => {
    const target = await refusingServer([{ status: 503, retryAfter: '0' }]);
    const { cp } = client(target.url);
    await expect(cp.patch('/v2/deployments/x', {})).rejects.toBeInstanceOf(TargetKeptRefusing);
    expect(target.seen).toHaveLength(1);
  });

  test('a target that keeps throttling past timeouts.throttleMs ends the wait: thrown in a test, the last answer otherwise', async () => {
    const forever = Array.from({ length: 50 }, () => ({ status: 429, retryAfter: '1' }));
    const target = await refusingServer(forever);
    const inTest = client(target.url, { throttleMs: 1_500 });
    await expect(inTest.cp.get('/v2/deployments')).rejects.toThrow(/the target kept throttling \(429\)/);
    expect(inTest.recorder.transient['control-plane']).toMatchObject({ throttled: 2, gaveUp: 1 });
    const outside = client(target.url, { throttleMs: 500, throwWhenRefused: false });
    expect((await outside.cp.get('/v2/deployments')).response?.status).toBe(429);
  });
});

describe('how long to wait', () => {
  const refused = (retryAfter?: string): Exchange => ({
    interface: 'control-plane',
    request: { method: 'GET', url: 'http://t/', headers: {} },
    response: { status: 429, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter }, text: '' },
    startedAt: '',
    durationMs: 0,
  });

  test('Retry-After in seconds or as a date, capped at a minute; a doubling backoff without it', () => {
    expect(waitMs(refused('2'), 0)).toBe(2_000);
    expect(waitMs(refused(new Date(10_000).toUTCString()), 0, 7_000)).toBe(3_000);
    expect(waitMs(refused('3600'), 0)).toBe(60_000);
    expect([0, 1, 2, 10].map((attempt) => waitMs(refused(), attempt))).toEqual([1_000, 2_000, 4_000, 30_000]);
  });
});

describe('Limiter in adaptive mode (--max-rps auto)', () => {
  test('starts unlimited, halves the rate it sent after a 429, and grows back after a calm stretch, not above what was throttled', async () => {
    vi.useFakeTimers();
    const limiter = new Limiter(8, undefined, true);
    expect(limiter.rate).toBeUndefined();
    await Promise.all(Array.from({ length: 20 }, () => limiter.run(async () => undefined)));
    limiter.throttled();
    expect(limiter.rate).toBe(10);
    await vi.advanceTimersByTimeAsync(6_000);
    await limiter.run(async () => undefined);
    expect(limiter.rate).toBe(12.5);
    for (let i = 0; i < 10; i++) {
      await vi.advanceTimersByTimeAsync(6_000);
      await limiter.run(async () => undefined);
    }
    expect(limiter.rate).toBe(18);
  });
});
