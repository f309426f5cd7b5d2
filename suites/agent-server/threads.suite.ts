// Threads (spec 2.7, 4.2): POST /threads with an empty object.
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { describeResponse } from '../../harness/http/curl.ts';
import { createThread } from './support/threads.ts';

requirement('AS-THR-001', async (t: Check) => {
  await createThread(t, 'AS-THR-001');
  const second = await t.as.post('/threads', {});
  t.expectSchema(second, 'Thread');
  const id = (second.response?.json as { thread_id: string }).thread_id;
  t.cleanup(`delete thread ${id}`, () => t.as.delete(`/threads/${id}`));
});

requirement('AS-THR-002', async (t: Check) => {
  const exchange = await t.as.post('/threads', {});
  const json = (exchange.response?.json ?? {}) as Record<string, unknown>;
  if (typeof json.thread_id === 'string') t.cleanup(`delete thread ${json.thread_id}`, () => t.as.delete(`/threads/${json.thread_id as string}`));
  const missing = ['thread_id', 'created_at', 'updated_at', 'metadata', 'status', 'config'].filter((f) => !(f in json));
  t.expect(missing.length === 0, { message: `POST /threads answered without ${missing.join(', ')}.`, expected: 'thread_id, created_at, updated_at, metadata, status, config', seen: describeResponse(exchange) });
});
