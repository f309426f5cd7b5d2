// Starts the tracing listener over real HTTP for the tests, on the in-memory store or on a fresh
// PostgreSQL database of the test run's server, and sends requests to it.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { createContext, type ReferenceContext } from '../../../reference-impl/context.ts';
import type { ReferenceOptions } from '../../../reference-impl/options.ts';
import { buildTracingApp } from '../../../reference-impl/tracing/app.ts';
import { freshDatabase } from '../../support/postgres.ts';

export type Backend = 'memory' | 'postgres';
export const BACKENDS: Backend[] = ['memory', 'postgres'];

export interface Reply {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

export interface TracingServer {
  url: string;
  apiKey: string;
  tenantId: string;
  ctx: ReferenceContext;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  close(): Promise<void>;
}

/** Options every test server shares: one key with one tenant, and fast statistics. */
export function testOptions(overrides: Partial<ReferenceOptions> = {}): ReferenceOptions {
  return { apiKeys: [{ key: `test-key-${randomUUID()}`, tenants: [randomUUID()] }], statsDelayMs: 100, ...overrides };
}

export async function sendRequest(url: string, method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Reply> {
  const raw = typeof body === 'string' || body instanceof Uint8Array;
  const response = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : raw ? (body as string) : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}

/** Builds and starts the tracing app with `options` (a databaseUrl selects PostgreSQL). */
export async function startTracing(options: ReferenceOptions): Promise<TracingServer> {
  const { ctx, close } = createContext(options);
  let app: FastifyInstance;
  try {
    app = await buildTracingApp(ctx);
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await close();
    throw error;
  }
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('tracing app has no TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  const grant = ctx.auth.grants[0]!;
  return {
    url,
    apiKey: grant.key,
    tenantId: grant.tenants[0]!,
    ctx,
    request: (method, path, body, headers = {}) => sendRequest(url, method, path, body, { 'x-api-key': grant.key, ...headers }),
    async close() {
      await app.close();
      await close();
    },
  };
}

/** A database for one test file: a fresh PostgreSQL database, or none for the memory backend. */
export async function databaseFor(backend: Backend): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  if (backend === 'memory') return { url: undefined, drop: async () => undefined };
  return freshDatabase(inject('databaseUrl'));
}

/** Starts a server on `backend` with its own database; `close` also drops the database. */
export async function startOn(backend: Backend, overrides: Partial<ReferenceOptions> = {}): Promise<TracingServer> {
  const database = await databaseFor(backend);
  const server = await startTracing(testOptions({ databaseUrl: database.url, ...overrides }));
  return {
    ...server,
    async close() {
      await server.close();
      await database.drop();
    },
  };
}
