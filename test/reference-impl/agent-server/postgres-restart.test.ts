// On PostgreSQL, assistants with their versions, threads and thread state survive a restart.
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { freshDatabase } from '../../support/postgres.ts';
import { startServer } from './support.ts';

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
      expect(more.frames.at(-1)!.data.messages.map((m: { content: string }) => m.content)).toEqual(['before restart', 'before restart', 'after restart', 'after restart']);
      const defaults = await second.call('POST', '/assistants/search', { metadata: { created_by: 'system' } });
      expect(defaults.body).toHaveLength(2);
    } finally {
      await second.close();
    }
  });
});
