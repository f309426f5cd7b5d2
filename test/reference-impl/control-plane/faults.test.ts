// Each fault switch makes the control plane deviate exactly as faults.md says, so the harness's
// negative self-tests have a real deviation to catch. Without switches, the same requests conform
// (the other test files show that).
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTROL_PLANE_FAULTS, type ControlPlaneFault } from '../../../reference-impl/control-plane/faults.ts';
import { createBodies, createDeployment, pollRevision, sendRequest, startOn, type ControlPlaneServer } from './control-plane-server.ts';

let server: ControlPlaneServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const withFault = async (fault: ControlPlaneFault, backend: 'memory' | 'postgres' = 'memory', options: { mode?: 'hosted' | 'self-hosted'; phaseMs?: number } = {}) => {
  server = await startOn(backend, { faults: [fault], ...options });
  return server;
};

const checks: Record<ControlPlaneFault, () => Promise<void>> = {
  'cp.revisions-oldest-first': async () => {
    const s = await withFault('cp.revisions-oldest-first');
    const created = await createDeployment(s, createBodies.internal_container());
    const patched = await s.request('PATCH', `/v2/deployments/${created.id}`, { secrets: [] });
    const listed = (await s.request('GET', `/v2/deployments/${created.id}/revisions`)).body.resources;
    expect(listed.map((r: { id: string }) => r.id)).toEqual([created.latest_revision_id, patched.body.latest_revision_id]);
  },
  'cp.immutable-name-accepted': async () => {
    const s = await withFault('cp.immutable-name-accepted');
    const created = await createDeployment(s, createBodies.internal_container());
    const renamed = await s.request('PATCH', `/v2/deployments/${created.id}`, { name: `${created.name}-renamed` });
    expect(renamed.status).toBe(200);
    expect((await s.request('GET', `/v2/deployments/${created.id}`)).body.name).toBe(`${created.name}-renamed`);
  },
  'cp.no-revision-on-secrets': async () => {
    const s = await withFault('cp.no-revision-on-secrets');
    const created = await createDeployment(s, createBodies.internal_container());
    const patched = await s.request('PATCH', `/v2/deployments/${created.id}`, { secrets: [{ name: 'A', value: 'b' }] });
    expect(patched.body.secrets).toEqual([{ name: 'A', value: 'b' }]);
    expect(patched.body.latest_revision_id).toBe(created.latest_revision_id);
  },
  'cp.no-cpu-rounding': async () => {
    const s = await withFault('cp.no-cpu-rounding', 'memory', { mode: 'self-hosted' });
    const base = createBodies.external_container();
    const created = await createDeployment(s, { ...base, source_config: { ...base.source_config, resource_spec: { cpu: 0.26 } } });
    expect(created.source_config.resource_spec.cpu).toBe(0.26);
  },
  'cp.no-resource-defaults': async () => {
    const s = await withFault('cp.no-resource-defaults', 'memory', { mode: 'self-hosted' });
    const base = createBodies.external_container();
    const created = await createDeployment(s, { ...base, source_config: { ...base.source_config, resource_spec: { cpu: 1, memory_mb: 100 } } });
    expect(created.source_config.resource_spec).toEqual({ cpu: 1, memory_mb: 100 });
  },
  'cp.not-found-plain-text': async () => {
    const s = await withFault('cp.not-found-plain-text');
    const id = randomUUID();
    const reply = await s.request('GET', `/v2/deployments/${id}`);
    expect(reply.status).toBe(404);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(reply.text).toBe(`Deployment ID ${id} not found.`);
  },
  'cp.validation-as-400': async () => {
    const s = await withFault('cp.validation-as-400');
    const reply = await s.request('POST', '/v2/deployments', { name: 1 });
    expect(reply.status).toBe(400);
    expect(typeof reply.body.detail).toBe('string');
  },
  'cp.no-auth': async () => {
    const s = await withFault('cp.no-auth');
    expect((await sendRequest(s.url, 'GET', '/v2/deployments', undefined, {})).status).toBe(200);
    expect((await sendRequest(s.url, 'GET', '/v2/deployments', undefined, { 'x-api-key': 'wrong' })).status).toBe(200);
  },
  'cp.tenant-leak': async () => {
    const s = (server = await startOn('memory', {
      faults: ['cp.tenant-leak'],
      apiKeys: [
        { key: 'k-a', tenants: [randomUUID()] },
        { key: 'k-b', tenants: [randomUUID()] },
      ],
    }));
    const created = await createDeployment(s, createBodies.internal_container());
    const other = await sendRequest(s.url, 'GET', `/v2/deployments/${created.id}`, undefined, { 'x-api-key': 'k-b' });
    expect(other.status).toBe(200);
    expect(other.body.id).toBe(created.id);
  },
  'cp.delete-keeps': async () => {
    const s = await withFault('cp.delete-keeps');
    const created = await createDeployment(s, createBodies.internal_container());
    expect((await s.request('DELETE', `/v2/deployments/${created.id}`)).status).toBe(204);
    expect((await s.request('GET', `/v2/deployments/${created.id}`)).status).toBe(200);
  },
  'cp.revision-stuck': async () => {
    const s = await withFault('cp.revision-stuck', 'memory', { phaseMs: 5 });
    const created = await createDeployment(s, createBodies.internal_container());
    await pollRevision(s, created.id, created.latest_revision_id, (status) => status === 'BUILDING');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await s.request('GET', `/v2/deployments/${created.id}/revisions/${created.latest_revision_id}`)).body.status).toBe('BUILDING');
  },
  'cp.failed-revision-active': async () => {
    const s = await withFault('cp.failed-revision-active', 'memory', { phaseMs: 5 });
    const created = await createDeployment(s, { ...createBodies.internal_container(), source_revision_config: { image_uri: 'registry.example.com/fail-build:1' } });
    await pollRevision(s, created.id, created.latest_revision_id, (status) => status === 'BUILD_FAILED');
    expect((await s.request('GET', `/v2/deployments/${created.id}`)).body.active_revision_id).toBe(created.latest_revision_id);
  },
  'cp.patch-lost-under-concurrency': async () => {
    for (const backend of ['memory', 'postgres'] as const) {
      const s = await withFault('cp.patch-lost-under-concurrency', backend);
      const created = await createDeployment(s, createBodies.internal_container());
      const replies = await Promise.all(Array.from({ length: 10 }, () => s.request('PATCH', `/v2/deployments/${created.id}`, { secrets: [] })));
      expect(replies.every((r) => r.status === 200)).toBe(true);
      const revisions = (await s.request('GET', `/v2/deployments/${created.id}/revisions?limit=100`)).body.resources;
      expect(revisions.length, backend).toBeLessThan(11);
      await s.close();
      server = undefined;
    }
  },
  'cp.tag-build-on-push-accepted': async () => {
    const s = await withFault('cp.tag-build-on-push-accepted');
    const base = createBodies.gitforge();
    const created = await createDeployment(s, {
      ...base,
      source_config: { ...base.source_config, build_on_push: true },
      source_revision_config: { repo_ref: 'refs/tags/v1', graph_config_path: 'graph.json' },
    });
    expect(created.source_config.build_on_push).toBe(true);
  },
  'cp.arbitrary-tarball-accepted': async () => {
    const s = await withFault('cp.arbitrary-tarball-accepted');
    const created = await createDeployment(s, createBodies.internal_source());
    const patched = await s.request('PATCH', `/v2/deployments/${created.id}`, { source_revision_config: { source_tarball_path: 'anywhere/at/all.tar.gz' } });
    expect(patched.status).toBe(200);
    expect(patched.body.source_revision_config.source_tarball_path).toBe('anywhere/at/all.tar.gz');
  },
  'cp.graph-config-path-optional': async () => {
    const s = await withFault('cp.graph-config-path-optional');
    const created = await createDeployment(s, { ...createBodies.internal_source(), source_revision_config: {} });
    expect(created.source_revision_config.graph_config_path).toBeNull();
  },
};

describe('control-plane fault switches', () => {
  it('have one check each', () => {
    expect(Object.keys(checks).sort()).toEqual([...CONTROL_PLANE_FAULTS].sort());
  });

  it.each(CONTROL_PLANE_FAULTS)('%s deviates as documented', async (fault) => {
    await checks[fault]();
  });
});
