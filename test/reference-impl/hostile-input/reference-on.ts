// The whole reference implementation (all three listeners) on one backend for the hostile-input
// tests, with a request helper per listener and a snapshot of everything a request could change.
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { startReference, type ReferenceOptions, type ReferenceServer } from '../../../reference-impl/index.ts';
import { databaseFor, sendRequest, type Backend, type Reply } from '../../support/reference-listener.ts';

export { BACKENDS, type Backend, type Reply } from '../../support/reference-listener.ts';

export type Listener = 'controlPlane' | 'agentServer' | 'experimentUpload';
export const LISTENERS: Listener[] = ['controlPlane', 'agentServer', 'experimentUpload'];

export interface RunningReference {
  server: ReferenceServer;
  databaseUrl: string | undefined;
  /** A request with the key; `body` a string or bytes is sent as is, labelled JSON. */
  call(listener: Listener, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** What the API shows of the stored state: deployments, revisions, assistants, threads, datasets, sessions. */
  snapshot(): Promise<unknown>;
  close(): Promise<void>;
}

/** Starts the reference on `backend` (a fresh database each time on PostgreSQL). */
export async function referenceOn(backend: Backend, overrides: Partial<ReferenceOptions> = {}): Promise<RunningReference> {
  const database = await databaseFor(backend);
  const server = await startReference({
    apiKeys: [{ key: `test-key-${randomUUID()}`, tenants: [randomUUID()] }],
    // Revisions stay put, so snapshots before and after a request compare equal.
    phaseMs: 600_000,
    // Statistics are filled at once, so nothing changes on its own between two snapshots.
    statsDelayMs: 0,
    databaseUrl: database.url,
    ...overrides,
  });
  const call: RunningReference['call'] = (listener, method, path, body, headers = {}) =>
    sendRequest(server.urls[listener], method, path, body, { 'x-api-key': server.apiKey, ...headers });
  return {
    server,
    databaseUrl: database.url,
    call,
    async snapshot() {
      const deployments = (await call('controlPlane', 'GET', '/v2/deployments?limit=100')).body;
      const revisions = [];
      for (const d of deployments.resources as { id: string }[]) revisions.push((await call('controlPlane', 'GET', `/v2/deployments/${d.id}/revisions?limit=100`)).body);
      return {
        deployments,
        revisions,
        assistants: (await call('agentServer', 'POST', '/assistants/search', { limit: 1000 })).body,
        threads: (await call('agentServer', 'POST', '/threads/search', { limit: 1000 })).body,
        datasets: (await call('experimentUpload', 'GET', '/api/v1/datasets?limit=100')).body,
        sessions: (await call('experimentUpload', 'GET', '/api/v1/sessions?limit=100')).body,
      };
    },
    async close() {
      await server.close();
      await database.drop();
    },
  };
}

/** GET /ok with 20 KB of headers, sent with node:http (fetch refuses to send such headers). */
export function getWithOversizedHeaders(base: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${base}/ok`, { headers: { 'x-padding': 'h'.repeat(20_000) } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    request.end();
  });
}
