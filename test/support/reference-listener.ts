// Starts one listener of the reference implementation over real HTTP for the tests of
// test/reference-impl/, on the in-memory store or on a fresh PostgreSQL database of the test
// run's server, and sends requests to it.
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { createContext, type ReferenceContext } from '../../reference-impl/context.ts';
import type { ReferenceOptions } from '../../reference-impl/options.ts';
import { freshDatabase } from './postgres.ts';

/** The two storage backends every behaviour test runs on. */
export type Backend = 'memory' | 'postgres';
export const BACKENDS: Backend[] = ['memory', 'postgres'];

/** A database for one test file: a fresh PostgreSQL database, or none for the memory backend. */
export async function databaseFor(backend: Backend): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  if (backend === 'memory') return { url: undefined, drop: async () => undefined };
  return freshDatabase(inject('databaseUrl'));
}

export interface Reply {
  status: number;
  body: any;
  text: string;
  headers: Headers;
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

export interface ListenerServer {
  /** Base URL, with the listener's base path. */
  url: string;
  /** The first configured key, and its first tenant. */
  apiKey: string;
  tenantId: string;
  ctx: ReferenceContext;
  /** A request with the first key. */
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  close(): Promise<void>;
}

/**
 * Makes a context from `options` (a databaseUrl selects PostgreSQL), builds the listener's app on
 * it with `build` and starts it on a loopback port; `basePath` (e.g. `/api-host`) ends its URL.
 */
export async function startListener(options: ReferenceOptions, build: (ctx: ReferenceContext) => Promise<FastifyInstance>, basePath = ''): Promise<ListenerServer> {
  const { ctx, close } = createContext(options);
  let app: FastifyInstance;
  try {
    app = await build(ctx);
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await close();
    throw error;
  }
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the listener has no TCP address');
  const url = `http://127.0.0.1:${address.port}${basePath}`;
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

/** Starts a server with `start` on `backend` with its own database; `close` also drops the database. */
export async function startOnBackend<S extends { close(): Promise<void> }>(backend: Backend, start: (databaseUrl: string | undefined) => Promise<S>): Promise<S> {
  const database = await databaseFor(backend);
  const server = await start(database.url);
  return {
    ...server,
    async close() {
      await server.close();
      await database.drop();
    },
  };
}
