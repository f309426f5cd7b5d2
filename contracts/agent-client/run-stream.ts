// What agent-client reads from a run stream, as the whole-body pattern its pact carries (Pact
// has no SSE support) and the example its consumer test's mock server answers with.
import { eventStreamPattern, JSON_OBJECT_LINE, jsonStringMember } from '../sse-body-pattern.ts';

/** What the client reads from a run stream: metadata with a run_id first, then updates. */
export const RUN_STREAM_PATTERN = eventStreamPattern([
  { kind: 'metadata', data: jsonStringMember('run_id') },
  { kind: 'updates', data: JSON_OBJECT_LINE },
]);
export const RUN_STREAM_EXAMPLE =
  'event: metadata\ndata: {"run_id": "1f0c8a52-3b6e-4d2a-9e1f-2a3b4c5d6e7f", "attempt": 1}\n\n' +
  'event: updates\ndata: {"echo": {"messages": [{"type": "ai", "content": "hello"}]}}\n\n';
