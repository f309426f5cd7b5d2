// The platform-like control plane over HTTP: each behaviour switched on alone, on both backends
// where it touches storage: asynchronous deletion, refusal of PATCHes while busy, small pages, a
// crowded tenant, slow builds, and throttling and 503s answered before any work.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { PlatformBehaviour } from '../../../reference-impl/platform-like/behaviours.ts';
import { PLATFORM_DEFAULTS } from '../../../reference-impl/platform-like/behaviours.ts';
import { existingName } from '../../../reference-impl/platform-like/many-deployments.ts';
import { LOAD_BALANCER_PAGE } from '../../../reference-impl/platform-like/bare-503s.ts';
import { BACKENDS, createBodies, createDeployment, pollRevision, startOn, type ControlPlaneServer } from '../control-plane/control-plane-server.ts';

async function withServer(backend: (typeof BACKENDS)[number], behaviours: PlatformBehaviour[], extra: { timeScale?: number; phaseMs?: number }, test: (server: ControlPlaneServer) => Promise<void>): Promise<void> {
  const server = await startOn(backend, { platformLike: { behaviours, timeScale: extra.timeScale ?? 1 }, ...(extra.phaseMs ? { phaseMs: extra.phaseMs } : {}) });
  try {
    await test(server);
  } finally {
    await server.close();
  }
}

/** Polls GET of the deployment until it answers 404; the statuses seen before. */
async function untilGone(server: ControlPlaneServer, id: string, timeoutMs: number): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await server.request('GET', `/v2/deployments/${id}`);
    if (reply.status === 404) return seen;
    expect(reply.status, reply.text).toBe(200);
    seen.push(reply.body.status);
    if (Date.now() > deadline) throw new Error(`deployment ${id} still there after ${timeoutMs} ms (${seen.at(-1)})`);
    await sleep(20);
  }
}

describe.each(BACKENDS)('platform-like control plane on %s', (backend) => {
  it('async-delete: 204, then readable and listed as AWAITING_DELETE, refusing PATCH, its build interrupted, then 404', async () => {
    await withServer(backend, ['async-delete'], { timeScale: 1 }, async (server) => {
      const deployment = await createDeployment(server, createBodies.internal_container());
      expect((await server.request('DELETE', `/v2/deployments/${deployment.id}`)).status).toBe(204);
      const read = await server.request('GET', `/v2/deployments/${deployment.id}`);
      expect(read.status).toBe(200);
      expect(read.body.status).toBe('AWAITING_DELETE');
      const listed = await server.request('GET', `/v2/deployments?name_contains=${deployment.name}`);
      expect(listed.body.resources.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual([[deployment.id, 'AWAITING_DELETE']]);
      const revision = await server.request('GET', `/v2/deployments/${deployment.id}/revisions/${deployment.latest_revision_id}`);
      expect(revision.body.status).toBe('INTERRUPTED');
      const patched = await server.request('PATCH', `/v2/deployments/${deployment.id}`, { secrets: [{ name: 'A', value: 'b' }] });
      expect(patched.status).toBe(409);
      expect(patched.body).toEqual({ detail: 'The deployment is being deleted.' });
      expect((await server.request('DELETE', `/v2/deployments/${deployment.id}`)).status).toBe(204);
      const seen = await untilGone(server, deployment.id, PLATFORM_DEFAULTS.deleteLingerMs + 10_000);
      expect(new Set(seen)).toEqual(new Set(['AWAITING_DELETE']));
      expect((await server.request('GET', `/v2/deployments/${deployment.id}/revisions`)).status).toBe(404);
    });
  });

  it('busy-deployments: a revision-creating PATCH is refused with 409 while the latest revision is in progress, and accepted once it is terminal', async () => {
    await withServer(backend, ['busy-deployments'], { phaseMs: 200 }, async (server) => {
      const deployment = await createDeployment(server, createBodies.internal_container());
      const refused = await server.request('PATCH', `/v2/deployments/${deployment.id}`, { source_revision_config: { image_uri: 'registry.example.com/agent:2' } });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ detail: 'A revision is already in progress for this deployment.' });
      // A PATCH that creates no revision is not held up.
      expect((await server.request('PATCH', `/v2/deployments/${deployment.id}`, {})).status).toBe(200);
      await pollRevision(server, deployment.id, deployment.latest_revision_id);
      const accepted = await server.request('PATCH', `/v2/deployments/${deployment.id}`, { source_revision_config: { image_uri: 'registry.example.com/agent:2' } });
      expect(accepted.status, accepted.text).toBe(200);
      expect(accepted.body.latest_revision_id).not.toBe(deployment.latest_revision_id);
    });
  });
});

describe('platform-like control plane (memory)', () => {
  it('without busy-deployments, a PATCH right after create creates its revision', async () => {
    await withServer('memory', [], {}, async (server) => {
      const deployment = await createDeployment(server, createBodies.internal_container());
      const patched = await server.request('PATCH', `/v2/deployments/${deployment.id}`, { source_revision_config: { image_uri: 'registry.example.com/agent:2' } });
      expect(patched.status).toBe(200);
    });
  });

  it('small-pages: a listing answers at most 10 items whatever limit asks, and the rest on the next pages', async () => {
    await withServer('memory', ['small-pages'], {}, async (server) => {
      const created = [];
      for (let i = 0; i < 13; i++) created.push(await createDeployment(server, createBodies.internal_container()));
      const first = await server.request('GET', '/v2/deployments?limit=100');
      expect(first.body.resources).toHaveLength(PLATFORM_DEFAULTS.pageSize);
      const rest = await server.request('GET', `/v2/deployments?limit=100&offset=${PLATFORM_DEFAULTS.pageSize}`);
      expect(rest.body).toMatchObject({ offset: PLATFORM_DEFAULTS.pageSize });
      expect(new Set([...first.body.resources, ...rest.body.resources].map((d: { id: string }) => d.id))).toEqual(new Set(created.map((d) => d.id)));
      expect((await server.request('GET', '/v2/deployments?limit=3')).body.resources).toHaveLength(3);
    });
  });

  it('many-deployments: the tenant already holds 120 READY deployments, older than any it creates', async () => {
    await withServer('memory', ['many-deployments'], {}, async (server) => {
      const mine = await createDeployment(server, createBodies.internal_container());
      const listed = [];
      for (let offset = 0; ; offset += 100) {
        const page = await server.request('GET', `/v2/deployments?limit=100&offset=${offset}`);
        listed.push(...page.body.resources);
        if (page.body.resources.length === 0) break;
      }
      expect(listed).toHaveLength(PLATFORM_DEFAULTS.existingDeployments + 1);
      expect(listed[0].id).toBe(mine.id);
      const existing = listed.slice(1);
      expect(existing.map((d) => d.name).sort()).toEqual(Array.from({ length: PLATFORM_DEFAULTS.existingDeployments }, (_, i) => existingName(i)));
      expect(new Set(existing.map((d) => d.status))).toEqual(new Set(['READY']));
      const revisions = await server.request('GET', `/v2/deployments/${existing[0].id}/revisions`);
      expect(revisions.body.resources.map((r: { status: string }) => r.status)).toEqual(['DEPLOYED']);
    });
  });

  it('slow-builds: phases of 1.5 s times the time scale, whatever phaseMs says', async () => {
    await withServer('memory', ['slow-builds'], { timeScale: 0.1, phaseMs: 5 }, async (server) => {
      expect(server.ctx.phaseMs).toBe(150);
      const deployment = await createDeployment(server, createBodies.internal_container());
      const seen = await pollRevision(server, deployment.id, deployment.latest_revision_id, undefined, 20_000);
      expect(seen.at(-1)).toBe('DEPLOYED');
      expect(seen.length).toBeGreaterThan(3);
    });
  });

  it('throttle: past 15 requests in a window one key gets 429 {"detail":"Rate limit exceeded"} with Retry-After, unprocessed, while another key goes on', async () => {
    // A window of a minute, so the 16 requests surely share one.
    await withServer('memory', ['throttle'], { timeScale: 60 }, async (server) => {
      for (let i = 0; i < PLATFORM_DEFAULTS.requestsPerWindow; i++) expect((await server.request('GET', '/v2/deployments')).status).toBe(200);
      const throttled = await server.request('POST', '/v2/deployments', createBodies.internal_container());
      expect(throttled.status).toBe(429);
      expect(throttled.body).toEqual({ detail: 'Rate limit exceeded' });
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(throttled.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      const other = await server.request('GET', '/v2/deployments', undefined, { 'x-api-key': 'another-key' });
      expect(other.status).toBe(401);
    });
  });

  it.each([
    [1, '1'],
    [0.1, '0.1'],
  ])('transient-errors at time scale %s: some GETs answer 503 {"detail":"Service temporarily unavailable"} with Retry-After: %s, never a POST', async (timeScale, retryAfter) => {
    await withServer('memory', ['transient-errors'], { timeScale }, async (server) => {
      const statuses = [];
      for (let i = 0; i < 200; i++) {
        const reply = await server.request('GET', '/v2/deployments');
        statuses.push(reply.status);
        if (reply.status === 503) {
          expect(reply.body).toEqual({ detail: 'Service temporarily unavailable' });
          expect(reply.headers.get('retry-after')).toBe(retryAfter);
        }
      }
      expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
      expect(new Set(statuses)).toEqual(new Set([200, 503]));
      for (let i = 0; i < 40; i++) expect((await server.request('POST', '/v2/deployments', createBodies.internal_container())).status).toBe(201);
    });
  });

  it('slow-posts: every POST is answered no sooner than 2 s of the platform (0.2 s at time scale 0.1), a GET at once', async () => {
    await withServer('memory', ['slow-posts'], { timeScale: 0.1 }, async (server) => {
      let started = Date.now();
      expect((await server.request('POST', '/v2/deployments', createBodies.internal_container())).status).toBe(201);
      expect(Date.now() - started).toBeGreaterThanOrEqual(PLATFORM_DEFAULTS.postMs * 0.1 - 5);
      started = Date.now();
      expect((await server.request('GET', '/v2/deployments')).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(PLATFORM_DEFAULTS.postMs * 0.1);
    });
  });

  it('bare-503s: some GETs answer 503 with a load balancer\'s page and no Retry-After, never twice in a row, other GETs than transient-errors strikes, never a POST', async () => {
    await withServer('memory', ['bare-503s', 'transient-errors'], {}, async (server) => {
      const bare: number[] = [];
      const withRetryAfter: number[] = [];
      for (let i = 0; i < 200; i++) {
        const reply = await server.request('GET', '/v2/deployments');
        if (reply.status !== 503) expect(reply.status).toBe(200);
        else if (reply.headers.get('retry-after') === null) {
          expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
          expect(reply.text).toBe(LOAD_BALANCER_PAGE);
          bare.push(i);
        } else withRetryAfter.push(i);
      }
      expect(bare.length).toBeGreaterThan(0);
      expect(withRetryAfter.length).toBeGreaterThan(0);
      expect(bare).not.toEqual(withRetryAfter);
      // A blip: the GET after a bare 503 of the same path is answered.
      for (const i of bare) expect(bare).not.toContain(i + 1);
      for (let i = 0; i < 40; i++) expect((await server.request('POST', '/v2/deployments', createBodies.internal_container())).status).toBe(201);
    });
  });
});
