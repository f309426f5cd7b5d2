// Threads (spec 2.7, 4.2): POST /threads with an empty object.
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { createThread } from './support/threads.ts';

// The spec gives thread_id no type: any non-empty string (createThread checks it), one per thread.
requirement('AS-THR-001', async (t: Check) => {
  const first = await createThread(t);
  const second = await createThread(t);
  t.expect(first !== second, { message: 'Two threads created with POST /threads got the same thread_id.', expected: 'two different thread ids', seen: [first, second] });
}, { cost: { creates: { threads: 2 } } });

requirement('AS-THR-002', async (t: Check) => {
  const exchange = await t.as.post('/threads', {});
  const json = (exchange.response?.json ?? {}) as Record<string, unknown>;
  if (typeof json.thread_id === 'string') t.cleanup(`delete thread ${json.thread_id}`, () => t.as.delete(`/threads/${json.thread_id as string}`));
  const missing = ['thread_id', 'created_at', 'updated_at', 'metadata', 'status', 'config'].filter((f) => !(f in json));
  t.expectOn(exchange, missing.length === 0, { message: `POST /threads answered without ${missing.join(', ')}.`, expected: 'thread_id, created_at, updated_at, metadata, status, config' });
}, { cost: { creates: { threads: 1 } } });
