// Starts the control-plane listener over real HTTP for the tests, on the in-memory store or on a
// fresh PostgreSQL database of the test run's server, with a recording stand-in for the tracing
// projects the experiment-upload listener would provide, and sends requests to it.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { buildControlPlaneApp, SELF_HOSTED_PREFIX } from '../../../reference-impl/control-plane/app.ts';
import { conflict, notFound } from '../../../reference-impl/http-errors.ts';
import type { ReferenceOptions } from '../../../reference-impl/options.ts';
import { startListener, startOnBackend, type Backend, type ListenerServer } from '../../support/reference-listener.ts';

export { BACKENDS, databaseFor, sendRequest } from '../../support/reference-listener.ts';

/** Tracing projects per tenant, as the experiment-upload listener keeps them. */
export class RecordingTracingProjects {
  readonly projects = new Set<string>();
  async createProject(tenantId: string, name: string): Promise<void> {
    const key = `${tenantId}/${name}`;
    if (this.projects.has(key)) throw conflict(`Tracing project ${name} already exists.`);
    this.projects.add(key);
  }
  async deleteProject(tenantId: string, name: string): Promise<void> {
    if (!this.projects.delete(`${tenantId}/${name}`)) throw notFound(`Tracing project ${name} not found.`);
  }
  has(tenantId: string, name: string): boolean {
    return this.projects.has(`${tenantId}/${name}`);
  }
}

export interface ControlPlaneServer extends ListenerServer {
  tracing: RecordingTracingProjects;
  /** Structured log lines written so far (when started with `log: true`). */
  logs: string[];
}

/**
 * Options every test server shares: one key with one tenant, and phases so long that revisions
 * stay put unless a test asks for progress with its own `phaseMs`.
 */
export function testOptions(overrides: Partial<ReferenceOptions> = {}): ReferenceOptions {
  return { apiKeys: [{ key: `test-key-${randomUUID()}`, tenants: [randomUUID()] }], phaseMs: 600_000, ...overrides };
}

/** Builds and starts the control-plane app with `options` (a databaseUrl selects PostgreSQL). */
export async function startControlPlane(options: ReferenceOptions): Promise<ControlPlaneServer> {
  const tracing = new RecordingTracingProjects();
  const logs: string[] = [];
  const server = await startListener(
    options,
    (ctx) => {
      ctx.tracingProjects = tracing;
      if (options.log && ctx.logger && typeof ctx.logger === 'object') {
        const stream = new Writable({
          write(chunk, _encoding, done) {
            logs.push(...String(chunk).split('\n').filter(Boolean));
            done();
          },
        });
        ctx.logger = { ...ctx.logger, stream };
      }
      return buildControlPlaneApp(ctx);
    },
    options.mode === 'self-hosted' ? SELF_HOSTED_PREFIX : '',
  );
  return { ...server, tracing, logs };
}

/** Starts a server on `backend` with its own database; `close` also drops the database. */
export function startOn(backend: Backend, overrides: Partial<ReferenceOptions> = {}): Promise<ControlPlaneServer> {
  return startOnBackend(backend, (databaseUrl) => startControlPlane(testOptions({ databaseUrl, ...overrides })));
}

let counter = 0;
/** A deployment name unique to this run. */
export const uniqueName = (label = 'dep') => `${label}-${process.pid}-${(counter += 1)}-${randomUUID().slice(0, 8)}`;

/** A valid create body for each source. */
export const createBodies = {
  gitforge: (name = uniqueName()) => ({
    name,
    source: 'gitforge',
    source_config: { integration_id: randomUUID(), repo_url: 'https://example.com/org/agent', deployment_type: 'dev', build_on_push: false },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'graph.json' },
    secrets: [{ name: 'OPENAI_API_KEY', value: `secret-${randomUUID()}` }],
  }),
  internal_source: (name = uniqueName()) => ({
    name,
    source: 'internal_source',
    source_config: {},
    source_revision_config: { graph_config_path: 'graph.json' },
    secrets: [],
  }),
  internal_container: (name = uniqueName()) => ({
    name,
    source: 'internal_container',
    source_config: {},
    source_revision_config: { image_uri: 'registry.example.com/agent:1' },
    secrets: [],
  }),
  external_container: (name = uniqueName()) => ({
    name,
    source: 'external_container',
    source_config: { listener_id: randomUUID(), listener_config: { cluster_namespace: 'agents' }, resource_spec: { cpu: 1, memory_mb: 1024 } },
    source_revision_config: { image_uri: 'registry.example.com/agent:1' },
    secrets: [],
  }),
};

/** Creates a deployment and returns it, failing the test on any other answer than 201. */
export async function createDeployment(server: ControlPlaneServer, body: object): Promise<any> {
  const reply = await server.request('POST', '/v2/deployments', body);
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

/** Polls a revision until `done(status)` holds; returns the statuses seen, in order. */
export async function pollRevision(
  server: ControlPlaneServer,
  deploymentId: string,
  revisionId: string,
  done: (status: string) => boolean = (s) => s === 'DEPLOYED' || s.includes('FAILED'),
  timeoutMs = 10_000,
): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await server.request('GET', `/v2/deployments/${deploymentId}/revisions/${revisionId}`);
    expect(reply.status, reply.text).toBe(200);
    const status = reply.body.status as string;
    if (seen[seen.length - 1] !== status) seen.push(status);
    if (done(status)) return seen;
    if (Date.now() > deadline) throw new Error(`revision ${revisionId} still ${status} after ${timeoutMs} ms; seen ${seen.join(' → ')}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
