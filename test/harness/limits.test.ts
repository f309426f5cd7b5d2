// The request limits of a run: the rate cap of --max-rps (on fake time, so no wall clock is
// measured) and the circuit breakers shared by the worker processes through a folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { CircuitBreaker } from '../../harness/http/circuit-breaker.ts';
import { Limiter } from '../../harness/http/limiter.ts';

describe('Limiter with a rate', () => {
  afterEach(() => vi.useRealTimers());

  test('--max-rps 4 starts requests at least 250 ms apart, also with room for more in flight', async () => {
    vi.useFakeTimers();
    const limiter = new Limiter(8, 4);
    const starts: number[] = [];
    const done = Promise.all(Array.from({ length: 5 }, () => limiter.run(async () => void starts.push(performance.now()))));
    await vi.advanceTimersByTimeAsync(2_000);
    await done;
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(gaps).toHaveLength(4);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(250);
  });

  test('without a rate, requests start at once', async () => {
    const limiter = new Limiter(8);
    let started = 0;
    await Promise.all(Array.from({ length: 5 }, () => limiter.run(async () => void started++)));
    expect(started).toBe(5);
  });
});

describe('CircuitBreaker', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  test('opens after the limit of failures in a row, naming the URL and the last failure; a success closes it', () => {
    const breaker = new CircuitBreaker('streams', 'passed their deadline', 2);
    const url = 'http://127.0.0.1:8123';
    breaker.failed(url, 'POST /runs/stream: stream still open after 15000 ms');
    expect(breaker.refusal(url)).toBeUndefined();
    breaker.failed(url, 'POST /threads/1/runs/stream: stream still open after 15000 ms');
    expect(breaker.refusal(url)).toBe(
      'not sent: the last 2 streams to http://127.0.0.1:8123 passed their deadline (the last: POST /threads/1/runs/stream: stream still open after 15000 ms)',
    );
    expect(breaker.refusal('http://127.0.0.1:8100')).toBeUndefined();
    breaker.succeeded(url);
    expect(breaker.refusal(url)).toBeUndefined();
  });

  test('worker processes sharing a folder share the count', () => {
    const dir = mkdtempSync(join(tmpdir(), 'apc-breaker-'));
    dirs.push(dir);
    // Two instances stand for two suite files in their own processes.
    const [a, b] = [new CircuitBreaker('requests', 'got no complete answer', 2), new CircuitBreaker('requests', 'got no complete answer', 2)];
    a.shareThrough(dir);
    b.shareThrough(dir);
    a.failed('http://t', 'GET /v2/deployments: no complete response within 10000 ms');
    b.failed('http://t', 'GET /v2/deployments/1: ECONNRESET');
    expect(a.refusal('http://t')).toContain('the last 2 requests to http://t got no complete answer (the last: GET /v2/deployments/1: ECONNRESET)');
    b.succeeded('http://t');
    expect(a.refusal('http://t')).toBeUndefined();
  });
});
