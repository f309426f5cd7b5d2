// The documented client flow (spec 4.1) against the whole reference implementation, as the
// example client runs it: POST a deployment, read the latest revision id as `resources[0].id` of
// the revisions listing, poll it until DEPLOYED, PATCH, DELETE. The tracing project of the same
// name lives on the experiment-upload listener.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from '../../../reference-impl/index.ts';
import { BACKENDS, databaseFor } from '../../support/reference-listener.ts';

describe.each(BACKENDS)('documented client flow on %s', (backend) => {
  let reference: ReferenceServer;
  let database: Awaited<ReturnType<typeof databaseFor>>;
  beforeAll(async () => {
    database = await databaseFor(backend);
    reference = await startReference({ phaseMs: 10, databaseUrl: database.url });
  });
  afterAll(async () => {
    await reference.close();
    await database.drop();
  });

  const call = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(url, {
      method,
      headers: { 'X-Api-Key': reference.apiKey, 'X-Tenant-Id': reference.tenantId, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const controlPlane = (path: string) => `${reference.urls.controlPlane}${path}`;
  const projectsNamed = async (name: string) => (await call('GET', `${reference.urls.experimentUpload}/api/v1/sessions?name=${encodeURIComponent(name)}`)).body as unknown[];

  async function waitUntilDeployed(deploymentId: string, revisionId: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const revision = await call('GET', controlPlane(`/v2/deployments/${deploymentId}/revisions/${revisionId}`));
      expect(revision.status).toBe(200);
      if (revision.body.status === 'DEPLOYED') return;
      expect(revision.body.status).not.toContain('FAILED');
      if (Date.now() > deadline) throw new Error(`revision ${revisionId} is ${revision.body.status} after 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('create → latest revision → DEPLOYED → patch → DEPLOYED → delete', async () => {
    const name = `client-flow-${backend}-${Date.now()}`;
    const created = await call('POST', controlPlane('/v2/deployments'), {
      name,
      source: 'gitforge',
      source_config: {
        integration_id: (await call('GET', controlPlane('/v1/integrations/gitforge/install'))).body[0].id,
        repo_url: 'https://example.com/org/agent',
        deployment_type: 'dev',
        build_on_push: false,
      },
      source_revision_config: { repo_ref: 'main', graph_config_path: 'graph.json' },
      secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-test' }],
    });
    expect(created.status).toBe(201);
    const deploymentId: string = created.body.id;
    expect(await projectsNamed(name)).toHaveLength(1);

    const revisions = await call('GET', controlPlane(`/v2/deployments/${deploymentId}/revisions`));
    const firstRevisionId: string = revisions.body.resources[0].id;
    expect(firstRevisionId).toBe(created.body.latest_revision_id);
    await waitUntilDeployed(deploymentId, firstRevisionId);

    const patched = await call('PATCH', controlPlane(`/v2/deployments/${deploymentId}`), { secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-rotated' }] });
    expect(patched.status).toBe(200);
    const secondRevisionId: string = (await call('GET', controlPlane(`/v2/deployments/${deploymentId}/revisions`))).body.resources[0].id;
    expect(secondRevisionId).not.toBe(firstRevisionId);
    expect(secondRevisionId).toBe(patched.body.latest_revision_id);
    await waitUntilDeployed(deploymentId, secondRevisionId);
    expect((await call('GET', controlPlane(`/v2/deployments/${deploymentId}`))).body).toMatchObject({ status: 'READY', active_revision_id: secondRevisionId });

    const deleted = await call('DELETE', controlPlane(`/v2/deployments/${deploymentId}?delete_tracing_project=true`));
    expect(deleted.status).toBe(204);
    expect((await call('GET', controlPlane(`/v2/deployments/${deploymentId}`))).status).toBe(404);
    expect(await projectsNamed(name)).toHaveLength(0);
  });
});
