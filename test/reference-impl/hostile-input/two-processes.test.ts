// Finding 6: two servers on one PostgreSQL database behave as one service. Ten concurrent runs
// on one thread, split over two reference instances (each with its own pool and its own
// in-process locks, as two processes would have), all keep their messages in the thread state.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startReference, type ReferenceServer } from '../../../reference-impl/index.ts';
import { freshDatabase } from '../../support/postgres.ts';
import { sendRequest } from '../../support/reference-listener.ts';

let database: { url: string; drop(): Promise<void> };
let servers: ReferenceServer[];
const apiKeys = [{ key: `test-key-${randomUUID()}`, tenants: [randomUUID()] }];

beforeAll(async () => {
  database = await freshDatabase(inject('databaseUrl'));
  servers = [];
  for (let i = 0; i < 2; i += 1) servers.push(await startReference({ databaseUrl: database.url, apiKeys }));
});

afterAll(async () => {
  for (const server of servers ?? []) await server.close();
  await database?.drop();
});

const call = (server: ReferenceServer, method: string, path: string, body?: unknown) =>
  sendRequest(server.urls.agentServer, method, path, body, { 'x-api-key': server.apiKey });

it('keeps every run of ten concurrent runs on one thread split over two servers', async () => {
  const thread = await call(servers[0]!, 'POST', '/threads', {});
  expect(thread.status, thread.text).toBe(200);
  const id = thread.body.thread_id as string;
  const runs = Array.from({ length: 10 }, (_, i) =>
    call(servers[i % 2]!, 'POST', `/threads/${id}/runs/stream`, { assistant_id: 'echo', input: { messages: [{ role: 'user', content: `run-${i}` }] } }),
  );
  for (const reply of await Promise.all(runs)) expect(reply.status, reply.text).toBe(200);
  const state = await call(servers[1]!, 'GET', `/threads/${id}/state`);
  const contents = (state.body.values.messages as { type: string; content: string }[]).map((m) => `${m.type}:${m.content}`);
  expect(contents).toHaveLength(20);
  for (let i = 0; i < 10; i += 1) {
    // Each run's human message is followed by its own echo: no run started from a stale state.
    const at = contents.indexOf(`human:run-${i}`);
    expect(at, contents.join(', ')).toBeGreaterThanOrEqual(0);
    expect(contents[at + 1]).toBe(`ai:run-${i}`);
  }
});
