// Runs of the fixture graph over HTTP, and the SSE checks as conformance failures. The fixture
// (`echo`, profile fixtures.graphId) has one node named `echo` whose update is
// {"messages": [{"type": "ai", "content": <content of the last message>}], "context": <the run's effective context>}.
import { type Check, type SseResult, eventsAreComplete, hasEventKinds, hasUpdateFromNode, nodeUpdates, type SseFailure } from '../../../harness/conformance/index.ts';

/** The fixture graph's only node. */
export const ECHO_NODE = 'echo';

export type StreamMode = string | string[];

export interface RunRequest {
  /** An assistant id or a graph name. */
  assistantId: string;
  /** Runs on this thread; stateless without one. */
  threadId?: string;
  input: Record<string, unknown>;
  /** Omitted from the body when undefined. */
  streamMode?: StreamMode;
}

/** Run input holding one human message. */
export function humanInput(content: string): Record<string, unknown> {
  return { messages: [{ type: 'human', content }] };
}

/** Run input adding no message: the fixture then answers from the state it starts with. */
export const NO_NEW_MESSAGE: Record<string, unknown> = { messages: [] };

export function runPath(threadId?: string): string {
  return threadId === undefined ? '/runs/stream' : `/threads/${threadId}/runs/stream`;
}

/** The rule a run request relies on: a thread run (AS-RUN-001) or a stateless one (AS-RUN-003). */
export const runRule = (run: Pick<RunRequest, 'threadId'>): string => (run.threadId === undefined ? 'AS-RUN-003' : 'AS-RUN-001');

/** Streams a run; a refused run (no event stream) fails `requirement` (by default the run rule). */
export async function streamRun(t: Check, run: RunRequest, requirement = runRule(run)): Promise<SseResult> {
  const body = { assistant_id: run.assistantId, input: run.input, ...(run.streamMode !== undefined ? { stream_mode: run.streamMode } : {}) };
  const answer = await t.stream(t.as, { method: 'POST', path: runPath(run.threadId), body });
  // Judged on the exchange: a refusal of one form of the request (a string stream_mode, say) fails
  // the rule that form breaks (requirements/attribution.yaml), not the run rule this step relies on.
  t.expectOn('events' in answer ? answer.exchange : answer, 'events' in answer, {
    requirement,
    message: 'events' in answer ? '' : `POST ${runPath(run.threadId)} did not stream: ${answer.response ? `it answered ${answer.response.status}` : answer.error ?? 'no response'}.`,
    expected: 'HTTP 2xx with a text/event-stream body',
  });
  // Every other reading of the stream relies on whole events (AS-SSE-002): an event without its
  // data line fails that rule once, and blocks the rules that read the data.
  expectSse(t, eventsAreComplete(answer as SseResult), 'AS-SSE-002');
  return answer as SseResult;
}

/** Checks `requirement` with an SSE check: it holds when the check found no failure. */
export function expectSse(t: Check, failure: SseFailure | undefined, requirement: string): void {
  t.expect(failure === undefined, { requirement, message: failure?.message ?? '', expected: failure?.expected, seen: failure?.seen });
}

/**
 * The echo node's (last) update of a stream in updates mode. Relies on AS-SSE-006 (the stream
 * carries updates events at all) and AS-SSE-005 (a fixture run yields the echo node's update).
 */
export function echoUpdate(t: Check, result: SseResult): Record<string, unknown> {
  expectSse(t, hasEventKinds(result, { kinds: ['updates'] }), 'AS-SSE-006');
  expectSse(t, hasUpdateFromNode(result, { node: ECHO_NODE }), 'AS-SSE-005');
  return nodeUpdates(result, ECHO_NODE).at(-1)!;
}

/** The content of the fixture's reply in an echo update ('' when it has none). */
export function replyContent(update: Record<string, unknown>): unknown {
  const messages = Array.isArray(update.messages) ? update.messages : [];
  const last: unknown = messages.at(-1);
  return typeof last === 'object' && last !== null && 'content' in last ? (last as { content: unknown }).content : undefined;
}

/** Runs the fixture in updates mode and returns its echo update; a run that does not stream fails `requirement`. */
export async function runEcho(t: Check, run: Omit<RunRequest, 'streamMode'>, requirement = runRule(run)): Promise<Record<string, unknown>> {
  return echoUpdate(t, await streamRun(t, { ...run, streamMode: 'updates' }, requirement));
}
