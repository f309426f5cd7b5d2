// On PostgreSQL, assistants with their versions, threads and thread state survive a restart, and
// a run cut off by a crash is failed on the next start without touching another server's live run.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { THREAD_LOCK_NAMESPACE } from '../../../reference-impl/agent-server/postgres-run-recovery.ts';
import { freshDatabase } from '../../support/postgres.ts';
import { startServer, type TestServer } from './support.ts';

/**
 * A run in flight as PostgresStore.withThreadLock keeps it: its own session holds the thread's
 * advisory lock and the thread is busy. `crash()` ends the session as a killed process's would.
 */
async function runInFlight(databaseUrl: string, threadId: string) {
  const session = new pg.Client({ connectionString: databaseUrl });
  session.on('error', () => undefined);
  await session.connect();
  await session.query('SELECT pg_advisory_lock($1, hashtext($2))', [THREAD_LOCK_NAMESPACE, threadId]);
  await session.query("UPDATE agent_threads SET status = 'busy' WHERE thread_id = $1", [threadId]);
  return {
    async crash() {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query('SELECT pg_terminate_backend($1)', [(session as unknown as { processID: number }).processID]);
      await admin.end();
      await session.end().catch(() => undefined);
    },
    async finish() {
      await session.query("UPDATE agent_threads SET status = 'idle' WHERE thread_id = $1", [threadId]);
      await session.query('SELECT pg_advisory_unlock($1, hashtext($2))', [THREAD_LOCK_NAMESPACE, threadId]);
      await session.end();
    },
  };
}

const statusOf = async (server: TestServer, threadId: string) => (await server.call('GET', `/threads/${threadId}`)).body.status;

describe('PostgreSQL storage across a restart', () => {
  let database: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    database = await freshDatabase(inject('databaseUrl'));
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('keeps assistants, versions, the active version, threads and their state', async () => {
    const first = await startServer('postgres', { databaseUrl: database.url });
    let assistant: any;
    let threadId: string;
    let state: any;
    try {
      assistant = (await first.call('POST', '/assistants', { graph_id: 'echo', name: 'kept', context: { v: 1 }, metadata: { kept: true } })).body;
      await first.call('PATCH', `/assistants/${assistant.assistant_id}`, { context: { v: 2 } });
      assistant = (await first.call('POST', `/assistants/${assistant.assistant_id}/latest`, { version: 1 })).body;
      threadId = (await first.call('POST', '/threads', { metadata: { kept: true } })).body.thread_id;
      await first.stream(`/threads/${threadId}/runs/stream`, { assistant_id: assistant.assistant_id, input: { messages: ['before restart'] } });
      state = (await first.call('GET', `/threads/${threadId}/state`)).body;
    } finally {
      await first.close();
    }

    const second = await startServer('postgres', { databaseUrl: database.url });
    try {
      expect((await second.call('GET', `/assistants/${assistant.assistant_id}`)).body).toEqual(assistant);
      const versions = await second.call('POST', `/assistants/${assistant.assistant_id}/versions`, {});
      expect(versions.body.map((v: { version: number; context: unknown }) => [v.version, v.context])).toEqual([
        [2, { v: 2 }],
        [1, { v: 1 }],
      ]);
      expect((await second.call('GET', `/threads/${threadId}/state`)).body).toEqual(state);
      const more = await second.stream(`/threads/${threadId}/runs/stream`, { assistant_id: assistant.assistant_id, input: { messages: ['after restart'] } });
      expect(more.frames.at(-1)!.data.messages.map((m: { content: string }) => m.content)).toEqual([
        'before restart',
        'before restart',
        'after restart',
        'after restart',
      ]);
      const defaults = await second.call('POST', '/assistants/search', { metadata: { created_by: 'system' } });
      expect(defaults.body).toHaveLength(2);
    } finally {
      await second.close();
    }
  });

  it("fails a run cut off by a crash on the next start, and leaves a live server's run running", async () => {
    let crashedThread: string;
    let liveThread: string;
    const first = await startServer('postgres', { databaseUrl: database.url });
    try {
      crashedThread = (await first.call('POST', '/threads', {})).body.thread_id;
      liveThread = (await first.call('POST', '/threads', {})).body.thread_id;
    } finally {
      await first.close();
    }
    const crashed = await runInFlight(database.url, crashedThread);
    const live = await runInFlight(database.url, liveThread);
    await crashed.crash();

    const restarted = await startServer('postgres', { databaseUrl: database.url });
    try {
      // A failed run leaves its thread in `error`, as a graph that throws does.
      expect(await statusOf(restarted, crashedThread)).toBe('error');
      expect(await statusOf(restarted, liveThread)).toBe('busy');
      await live.finish();
      expect(await statusOf(restarted, liveThread)).toBe('idle');
      // The recovered thread takes new runs.
      const more = await restarted.stream(`/threads/${crashedThread}/runs/stream`, { assistant_id: 'echo', input: { messages: ['after the crash'] } });
      expect(more.status).toBe(200);
      expect(await statusOf(restarted, crashedThread)).toBe('idle');
    } finally {
      await restarted.close();
    }
  });
});
