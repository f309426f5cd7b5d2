// The latency probe must never create outside the run's budget: its POSTs create nothing on a
// target that follows the spec, but one that (wrongly) accepts the empty create or the empty upload
// gets one such POST only, the deployment it made is deleted at once, and what it created is told
// to the run, which counts it (test/self-cert/control-plane/latency-probe-create.test.ts).
import { createServer, type Server } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { LATENCY_SAMPLES, measureLatency } from '../../harness/run/latency.ts';
import { defaultProfile, type TargetProfile } from '../../harness/profile/profile.ts';
import type { Created } from '../../harness/conformance/created.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A target that accepts every POST, empty or not: a create makes a deployment a DELETE removes. */
async function accepting(seen: string[]): Promise<string> {
  const deployments = new Set<string>();
  let next = 0;
  server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    seen.push(`${req.method} ${path}`);
    const json = (status: number, body?: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? undefined : JSON.stringify(body));
    req.resume().on('end', () => {
      const one = /^\/v2\/deployments\/([^/]+)$/.exec(path)?.[1];
      if (req.method === 'POST' && path === '/v2/deployments') {
        const id = `00000000-0000-4000-8000-00000000000${next++}`;
        deployments.add(id);
        return json(201, { id, latest_revision_id: `10000000-0000-4000-8000-00000000000${next}` });
      }
      if (req.method === 'POST') return json(200, { ok: true });
      if (req.method === 'DELETE' && one) return json(deployments.delete(one) ? 204 : 404);
      if (req.method === 'GET' && one) return deployments.has(one) ? json(200, { id: one }) : json(404, { detail: 'Not found' });
      return json(200, { resources: [] });
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

function profileOf(url: string, budget?: TargetProfile['budget']): TargetProfile {
  return { ...defaultProfile(), urls: { 'control-plane': url, 'experiment-upload': url }, pollIntervalMs: 10, ...(budget ? { budget } : {}) };
}

test('a target that accepts the empty create and upload: one POST each, the deployment deleted, and what they created told to the run', async () => {
  const seen: string[] = [];
  const url = await accepting(seen);
  const told: { created: Created; problems: string[] }[] = [];
  const latency = await measureLatency(profileOf(url), ['control-plane', 'experiment-upload'], {
    created: (created, problems) => told.push({ created, problems }),
  });
  expect(seen.filter((s) => s === 'POST /v2/deployments')).toHaveLength(1);
  expect(seen.filter((s) => s === 'POST /api/v1/datasets/upload-experiment')).toHaveLength(1);
  // The reads are not creates: their samples stay as many as before.
  expect(seen.filter((s) => s === 'GET /v2/deployments')).toHaveLength(LATENCY_SAMPLES);
  expect(seen.filter((s) => s.startsWith('DELETE /v2/deployments/'))).toHaveLength(1);
  expect(told).toEqual([{ created: { deployments: 1, revisions: 1, uploads: 1 }, problems: [] }]);
  // One sample is then the measure.
  expect(latency['control-plane']?.postMs).toBeGreaterThanOrEqual(0);
  expect(latency['experiment-upload']?.postMs).toBeGreaterThanOrEqual(0);
});

test('a target that refuses the empty POSTs, as the spec says: three samples, nothing deleted, nothing told', async () => {
  const seen: string[] = [];
  server = createServer((req, res) => {
    seen.push(req.method!);
    res.writeHead(req.method === 'POST' ? 422 : 200, { 'content-type': 'application/json' }).end('{"detail":[]}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const told: Created[] = [];
  await measureLatency(profileOf(url), ['control-plane'], { created: (created) => told.push(created) });
  expect(seen.filter((m) => m === 'POST')).toHaveLength(LATENCY_SAMPLES);
  expect(seen.filter((m) => m === 'DELETE')).toHaveLength(0);
  expect(told).toEqual([]);
});

test('a budget with no room for a deployment: the empty create is not sent at all, and the POSTs are taken as quick as the reads', async () => {
  const seen: string[] = [];
  const url = await accepting(seen);
  const latency = await measureLatency(profileOf(url, { deployments: 0, revisions: 10 }), ['control-plane']);
  expect(seen.filter((s) => s.startsWith('POST'))).toEqual([]);
  expect(latency['control-plane']!.postMs).toBe(latency['control-plane']!.readMs);
});

test('a deployment the probe could not delete is told as a cleanup problem', async () => {
  const seen: string[] = [];
  server = createServer((req, res) => {
    seen.push(`${req.method}`);
    const status = req.method === 'POST' ? 201 : req.method === 'DELETE' ? 500 : 200;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ id: '00000000-0000-4000-8000-000000000001', resources: [] }));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const told: string[][] = [];
  await measureLatency({ ...profileOf(url), timeouts: { ...defaultProfile().timeouts, requestMs: 2_000 } }, ['control-plane'], {
    created: (_created, problems) => told.push(problems),
  });
  expect(seen.filter((m) => m === 'POST')).toHaveLength(1);
  expect(told).toHaveLength(1);
  expect(told[0]![0]).toMatch(
    /^cleanup of the latency probe: deleting deployment .* failed: DELETE \/v2\/deployments\/00000000-0000-4000-8000-000000000001: HTTP 500/,
  );
});
