// The control plane as a service: concurrent PATCHes lose nothing (both backends); on PostgreSQL a
// revision survives a restart mid-build, and two processes on one database behave as one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKENDS,
  createBodies,
  createDeployment,
  databaseFor,
  pollRevision,
  startControlPlane,
  startOn,
  testOptions,
  type ControlPlaneServer,
} from './control-plane-server.ts';

describe.each(BACKENDS)('concurrent PATCHes on %s', (backend) => {
  let server: ControlPlaneServer;
  beforeAll(async () => {
    server = await startOn(backend);
  });
  afterAll(() => server.close());

  it('ten PATCHes at once each create exactly one revision, none lost', async () => {
    const created = await createDeployment(server, createBodies.internal_container());
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        server.request('PATCH', `/v2/deployments/${created.id}`, { source_revision_config: { image_uri: `registry.example.com/agent:${i}` } }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const revisions = (await server.request('GET', `/v2/deployments/${created.id}/revisions?limit=100`)).body.resources as { id: string; source_revision_config: { image_uri: string } }[];
    expect(revisions).toHaveLength(11);
    expect(new Set(replies.map((r) => r.body.latest_revision_id)).size).toBe(10);
    const images = revisions.slice(0, 10).map((r) => r.source_revision_config.image_uri).sort();
    expect(images).toEqual(Array.from({ length: 10 }, (_, i) => `registry.example.com/agent:${i}`).sort());
    expect((await server.request('GET', `/v2/deployments/${created.id}`)).body.latest_revision_id).toBe(revisions[0]!.id);
  });
});

describe('on one PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof databaseFor>>;
  const options = testOptions({ phaseMs: 150 });
  const started: ControlPlaneServer[] = [];
  const start = async (phaseMs = 150) => {
    const server = await startControlPlane({ ...options, phaseMs, databaseUrl: database.url });
    started.push(server);
    return server;
  };
  beforeAll(async () => {
    database = await databaseFor('postgres');
  });
  afterAll(async () => {
    for (const server of started) await server.close().catch(() => undefined);
    await database.drop();
  });

  it('a revision stopped mid-build resumes after a restart and reaches DEPLOYED', async () => {
    const first = await start();
    const created = await createDeployment(first, createBodies.internal_container());
    await pollRevision(first, created.id, created.latest_revision_id, (s) => s === 'BUILDING');
    await first.close();
    const second = await start();
    const seen = await pollRevision(second, created.id, created.latest_revision_id);
    expect(seen[0]).toBe('BUILDING');
    expect(seen.at(-1)).toBe('DEPLOYED');
    expect((await second.request('GET', `/v2/deployments/${created.id}`)).body).toMatchObject({ status: 'READY', active_revision_id: created.latest_revision_id });
  });

  it('two processes behave as one: both see every change, revisions advance once and monotonically', async () => {
    const [a, b] = [await start(20), await start(20)];
    const created = await createDeployment(a, createBodies.internal_container());
    expect((await b.request('GET', `/v2/deployments/${created.id}`)).body).toEqual(created);
    const conflict = await b.request('POST', '/v2/deployments', createBodies.internal_container(created.name));
    expect(conflict.status).toBe(409);
    const patches = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).request('PATCH', `/v2/deployments/${created.id}`, { secrets: [{ name: 'N', value: String(i) }] })),
    );
    expect(patches.every((p) => p.status === 200)).toBe(true);
    const order = ['CREATING', 'QUEUED', 'AWAITING_BUILD', 'BUILDING', 'AWAITING_DEPLOY', 'DEPLOYING', 'DEPLOYED'];
    const seen = new Map<string, string[]>();
    const deadline = Date.now() + 15_000;
    for (;;) {
      // One read after the other, so the observations are in time order.
      for (const server of [a, b]) {
        const listing = await server.request('GET', `/v2/deployments/${created.id}/revisions?limit=100`);
        for (const revision of listing.body.resources as { id: string; status: string }[]) {
          const statuses = seen.get(revision.id) ?? [];
          if (statuses.at(-1) !== revision.status) statuses.push(revision.status);
          seen.set(revision.id, statuses);
        }
      }
      const terminal = [...seen.values()].every((s) => ['DEPLOYED', 'INTERRUPTED', 'SKIPPED'].includes(s.at(-1)!));
      if (terminal && seen.size === 7) break;
      if (Date.now() > deadline) throw new Error(`revisions did not finish: ${JSON.stringify([...seen])}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    for (const statuses of seen.values()) {
      const indexes = statuses.filter((s) => order.includes(s)).map((s) => order.indexOf(s));
      expect(indexes).toEqual([...indexes].sort((x, y) => x - y));
    }
    const [viewA, viewB] = await Promise.all([a, b].map((s) => s.request('GET', `/v2/deployments/${created.id}`)));
    expect(viewA!.body).toEqual(viewB!.body);
    expect(viewA!.body.status).toBe('READY');
    expect(viewA!.body.active_revision_id).toBe(viewA!.body.latest_revision_id);
  });
});
