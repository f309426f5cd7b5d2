// Threads over HTTP for the suites.
import type { Check } from '../../../harness/conformance/index.ts';
import { expect2xx, is2xx } from './assistants.ts';

/** POST /threads with an empty object; the thread id. Relies on AS-THR-001. */
export async function createThread(t: Check): Promise<string> {
  const requirement = 'AS-THR-001';
  const exchange = await t.as.post('/threads', {});
  expect2xx(t, exchange, requirement, 'Creating a thread (POST /threads with {})');
  const json = exchange.response?.json as Record<string, unknown> | undefined;
  const id = json?.thread_id;
  t.expectOn(exchange, typeof id === 'string' && id.length > 0, { requirement, message: 'POST /threads answered without a thread_id.', expected: 'a thread with thread_id' });
  // The spec shows no thread deletion; the common form is tried and its answer ignored.
  t.cleanup(`delete thread ${id}`, () => t.as.delete(`/threads/${id}`));
  return id;
}

/** POST /threads with an empty object, judging nothing: the thread id, or undefined when none was made. */
export async function tryCreateThread(t: Check): Promise<string | undefined> {
  const exchange = await t.as.post('/threads', {});
  const json = exchange.response?.json as Record<string, unknown> | undefined;
  const id = json?.thread_id;
  if (!is2xx(exchange) || typeof id !== 'string' || id.length === 0) return undefined;
  t.cleanup(`delete thread ${id}`, () => t.as.delete(`/threads/${id}`));
  return id;
}
