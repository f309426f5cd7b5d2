// The source tarball flow of the field notes on both backends: upload-url (both paths), PUT of a
// gzip tarball, PATCH with the object path; refused paths, types, sizes and tokens.
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createBodies, createDeployment, pollRevision, startOn, type ControlPlaneServer } from './control-plane-server.ts';

const tarball = gzipSync(Buffer.from('pretend this is a tar archive of an agent'));

async function put(url: string, body: Uint8Array | string, contentType = 'application/gzip'): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Declares a body larger than the limit and sends none of it: the server must refuse from the header. */
function putDeclaringSize(url: string, bytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'PUT', headers: { 'content-type': 'application/gzip', 'content-length': String(bytes) } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

describe.each(BACKENDS)('source tarball uploads on %s', (backend) => {
  let server: ControlPlaneServer;
  beforeAll(async () => {
    server = await startOn(backend, { phaseMs: 10 });
  });
  afterAll(() => server.close());

  const handOut = async (deploymentId: string, path = `/v2/deployments/${deploymentId}/upload-url`) => {
    const reply = await server.request('POST', path);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as { upload_url: string; object_path: string };
  };

  it('runs the documented flow: upload-url, PUT, PATCH with revision_source internal_source, revision deploys', async () => {
    const created = await createDeployment(server, createBodies.internal_source());
    const { upload_url, object_path } = await handOut(created.id);
    expect(upload_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(object_path).toContain(created.id);
    expect((await put(upload_url, tarball)).status).toBe(200);
    const patched = await server.request('PATCH', `/v2/deployments/${created.id}`, {
      revision_source: 'internal_source',
      source_revision_config: { source_tarball_path: object_path },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.source_revision_config).toMatchObject({ source_tarball_path: object_path, graph_config_path: 'graph.json' });
    expect((await pollRevision(server, created.id, patched.body.latest_revision_id)).at(-1)).toBe('DEPLOYED');
  });

  it('serves the spec’s unversioned path too, and each call hands out a new location', async () => {
    const created = await createDeployment(server, createBodies.internal_source());
    const first = await handOut(created.id, `/deployments/${created.id}/upload-url`);
    const second = await handOut(created.id);
    expect(first.upload_url).not.toBe(second.upload_url);
    expect(first.object_path).not.toBe(second.object_path);
  });

  it('accepts a handed-out path that was never uploaded, whose build then fails', async () => {
    const created = await createDeployment(server, createBodies.internal_source());
    const { object_path } = await handOut(created.id);
    const patched = await server.request('PATCH', `/v2/deployments/${created.id}`, { source_revision_config: { source_tarball_path: object_path } });
    expect(patched.status).toBe(200);
    expect((await pollRevision(server, created.id, patched.body.latest_revision_id)).at(-1)).toBe('BUILD_FAILED');
  });

  it('refuses an arbitrary object path, and one handed out for another deployment, changing nothing', async () => {
    const created = await createDeployment(server, createBodies.internal_source());
    const other = await createDeployment(server, createBodies.internal_source());
    const foreign = await handOut(other.id);
    await put(foreign.upload_url, tarball);
    for (const path of ['deployments/whatever/source.tar.gz', foreign.object_path]) {
      const reply = await server.request('PATCH', `/v2/deployments/${created.id}`, { source_revision_config: { source_tarball_path: path } });
      expect(reply.status, path).toBe(400);
      expect(reply.body.detail).toContain('upload-url');
    }
    expect((await server.request('GET', `/v2/deployments/${created.id}/revisions`)).body.resources).toHaveLength(1);
  });

  it('refuses a source_tarball_path for a revision that is not internal_source', async () => {
    const created = await createDeployment(server, createBodies.internal_container());
    const { object_path } = await handOut(created.id);
    const reply = await server.request('PATCH', `/v2/deployments/${created.id}`, { source_revision_config: { source_tarball_path: object_path } });
    expect(reply.status).toBe(400);
    expect(reply.body.detail).toContain('source_tarball_path');
  });

  it('refuses other content types (415), non-gzip bodies (400), unknown tokens (403), and more than 200 MiB (413)', async () => {
    const created = await createDeployment(server, createBodies.internal_source());
    const { upload_url } = await handOut(created.id);
    expect((await put(upload_url, tarball, 'application/json')).status).toBe(415);
    const notGzip = await put(upload_url, 'plain text, not gzip');
    expect(notGzip.status).toBe(400);
    expect(typeof notGzip.body.detail).toBe('string');
    const unknown = await put(upload_url.replace(/[^/]+$/, 'forged-token'), tarball);
    expect(unknown.status).toBe(403);
    const tooLarge = await putDeclaringSize(upload_url, 200 * 1024 * 1024 + 1);
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body).detail).toEqual(expect.any(String));
  });

  it('needs no API key for the upload target but does for upload-url', async () => {
    const created = await createDeployment(server, createBodies.internal_source());
    const unauthenticated = await fetch(`${server.url}/v2/deployments/${created.id}/upload-url`, { method: 'POST' });
    expect(unauthenticated.status).toBe(401);
    const { upload_url } = await handOut(created.id);
    expect((await put(upload_url, tarball)).status).toBe(200);
  });

  it('forgets upload locations with their deployment', async () => {
    const created = await createDeployment(server, createBodies.internal_source());
    const { upload_url } = await handOut(created.id);
    await server.request('DELETE', `/v2/deployments/${created.id}`);
    expect((await put(upload_url, tarball)).status).toBe(403);
  });
});
