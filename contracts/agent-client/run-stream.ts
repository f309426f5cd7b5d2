// What agent-client reads from a run stream, as the whole-body pattern its pact carries (Pact
// has no SSE support) and the example its consumer test's mock server answers with.
import { eventStreamPattern, JSON_OBJECT_LINE, jsonStringMember } from '../sse-body-pattern.ts';

/** What the client reads from a run stream: metadata with a run_id first, then updates. */
export const RUN_STREAM_PATTERN = eventStreamPattern([
  { kind: 'metadata', data: jsonStringMember('run_id') },
  { kind: 'updates', data: JSON_OBJECT_LINE },
]);
/**
 * A run by assistant_id after version 1 (context {tone: brief}) was made active again over a newer
 * version: the echo fixture's update shows the context the run used, which must be version 1's.
 */
export const ACTIVE_VERSION_RUN_PATTERN = eventStreamPattern([
  { kind: 'metadata', data: jsonStringMember('run_id') },
  { kind: 'updates', data: jsonStringMember('tone', 'brief') },
]);
export const ACTIVE_VERSION_RUN_EXAMPLE =
  'event: metadata\ndata: {"run_id": "1f0c8a52-3b6e-4d2a-9e1f-2a3b4c5d6e7f", "attempt": 1}\n\n' +
  'event: updates\ndata: {"echo": {"messages": [{"type": "ai", "content": "hello"}], "context": {"tone": "brief"}}}\n\n';
export const RUN_STREAM_EXAMPLE =
  'event: metadata\ndata: {"run_id": "1f0c8a52-3b6e-4d2a-9e1f-2a3b4c5d6e7f", "attempt": 1}\n\n' +
  'event: updates\ndata: {"echo": {"messages": [{"type": "ai", "content": "hello"}]}}\n\n';
