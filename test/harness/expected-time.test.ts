// The expected wall time a run prints before it starts: the target's latency, measured with a few
// cheap requests (reads and POSTs apart), times the selected tests' requests, shared among the
// requests in flight, plus the harness's own work; and a warning when it passes --max-time.
import { createServer, type Server } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { expectedTime, expectedTimeLines, loadRequestTable, type RequestTable } from '../../harness/run/expected-time.ts';
import { LATENCY_SAMPLES, measureLatency } from '../../harness/run/latency.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';

const TABLE: RequestTable = {
  measured: 'test',
  runs: 25,
  wallMs: 20_000,
  startMs: 4_000,
  tests: {
    'CP-CREATE-001 a create': { requirements: ['CP-CREATE-001'], requests: { 'control-plane': { posts: 10, others: 30 } } },
    'CP-READ-001 a read': { requirements: ['CP-READ-001'], requests: { 'control-plane': { posts: 0, others: 20 } } },
    'EU-REQ-001 an upload': { requirements: ['EU-REQ-001'], requests: { 'experiment-upload': { posts: 25, others: 0 } } },
    'AS-ASST-001 an assistant': { requirements: ['AS-ASST-001'], requests: { 'agent-server': { posts: 2, others: 1 } } },
  },
};

const LATENCY = { 'control-plane': { readMs: 10, postMs: 2000 }, 'experiment-upload': { readMs: 10, postMs: 2000 } };

test('the selected tests requests times the latency, shared among the requests in flight, plus the start and a share of the harness work', () => {
  const expected = expectedTime(TABLE, ['CP-CREATE-001', 'EU-REQ-001'], LATENCY, 4);
  expect(expected.requests).toEqual({ 'control-plane': { posts: 10, others: 30 }, 'experiment-upload': { posts: 25, others: 0 } });
  expect(expected.requestsMs).toBe((10 * 2000 + 30 * 10 + 25 * 2000) / 4);
  expect(expected.harnessMs).toBe(4_000 + (16_000 * 2) / 4);
  expect(expected.totalMs).toBe(expected.requestsMs + expected.harnessMs);
  // Twice the requests in flight, half the requests' time.
  expect(expectedTime(TABLE, ['CP-CREATE-001', 'EU-REQ-001'], LATENCY, 8).requestsMs).toBe(expected.requestsMs / 2);
});

test('the lines name each interface requests and latency, the expected wall time, and say when it passes --max-time', () => {
  const expected = expectedTime(TABLE, ['CP-CREATE-001', 'EU-REQ-001'], LATENCY, 4);
  const lines = expectedTimeLines(expected, LATENCY, { concurrency: 4, runs: 25, tableRuns: 25, maxTime: { ms: 60_000, label: '--max-time 1m' } });
  expect(lines[0]).toBe('  control-plane      about 40 request(s), 10 of them POST; latency measured: read 10 ms, POST 2.0 s');
  expect(lines[1]).toBe('  experiment-upload  about 25 request(s), 25 of them POST; latency measured: read 10 ms, POST 2.0 s');
  expect(lines[2]).toMatch(/^ {2}expected wall time: about 30 s \(the requests 18 s at 4 in flight, the harness's own work 12 s\)\.$/);
  expect(lines).toHaveLength(3);
  const short = expectedTimeLines(expected, LATENCY, { concurrency: 4, runs: 25, tableRuns: 25, maxTime: { ms: 20_000, label: '--max-time 20s' } });
  expect(short[3]).toMatch(/^ {2}--max-time 20s is shorter than that: the run will likely stop before its end/);
  const planned = expectedTimeLines(expected, LATENCY, { concurrency: 4, runs: 5, tableRuns: 25, waitsMs: 120_000 });
  expect(planned[2]).toBe(
    "  expected wall time: about 2 min (the requests 18 s at 4 in flight, the harness's own work 12 s, the revision waits 2 min) (counted at --runs 25; this run asks 5).",
  );
});

test('the committed table counts every interface, and its start is part of its wall time', () => {
  const table = loadRequestTable();
  expect(table.startMs).toBeGreaterThan(0);
  expect(table.wallMs).toBeGreaterThan(table.startMs);
  const all = expectedTime(
    table,
    Object.values(table.tests).flatMap((t) => t.requirements),
    {},
    4,
  ).requests;
  for (const name of ['control-plane', 'agent-server', 'experiment-upload'] as const) expect(all[name]?.posts ?? 0).toBeGreaterThan(0);
});

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

test('latency: reads and POSTs are measured apart, a few samples each, and an interface that does not answer is left out', async () => {
  const seen: string[] = [];
  server = createServer((req, res) => {
    seen.push(req.method!);
    // POSTs answered late, as on a platform whose creates provision a database.
    setTimeout(() => res.writeHead(422, { 'content-type': 'application/json' }).end('{"detail":"invalid"}'), req.method === 'POST' ? 300 : 0);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const profile = { ...defaultProfile(), urls: { 'control-plane': `http://127.0.0.1:${port}`, 'experiment-upload': 'http://127.0.0.1:9' } };
  const latency = await measureLatency(profile, ['control-plane', 'experiment-upload']);
  expect(latency['control-plane']!.postMs).toBeGreaterThanOrEqual(300);
  expect(latency['control-plane']!.readMs).toBeLessThan(300);
  expect(latency['experiment-upload']).toBeUndefined();
  expect(seen.filter((m) => m === 'POST')).toHaveLength(LATENCY_SAMPLES);
  expect(seen.filter((m) => m === 'GET')).toHaveLength(LATENCY_SAMPLES);
});
