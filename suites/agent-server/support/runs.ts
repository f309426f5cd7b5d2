// Runs of the fixture graph over HTTP, and the SSE checks as conformance failures. The fixture
// (`echo`, profile fixtures.graphId) has one node named `echo` whose update is
// {"messages": [{"type": "ai", "content": <content of the last message>}], "context": <the run's effective context>}.
import type { Check, SseResult } from '../../../harness/conformance/index.ts';
import { describeResponse } from '../../../harness/http/curl.ts';
import { hasUpdateFromNode, nodeUpdates, type SseFailure } from '../../../harness/sse/checker.ts';

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

/** Streams a run; a refused run (no event stream) fails `requirement`. */
export async function streamRun(t: Check, run: RunRequest, requirement: string): Promise<SseResult> {
  const body = { assistant_id: run.assistantId, input: run.input, ...(run.streamMode !== undefined ? { stream_mode: run.streamMode } : {}) };
  const answer = await t.stream(t.as, { method: 'POST', path: runPath(run.threadId), body });
  if ('events' in answer) return answer;
  return t.fail({
    requirement,
    message: `POST ${runPath(run.threadId)} did not stream: ${answer.response ? `it answered ${answer.response.status}` : answer.error ?? 'no response'}.`,
    expected: 'HTTP 2xx with a text/event-stream body',
    seen: describeResponse(answer),
  });
}

/** Fails `requirement` with an SSE check's failure, if there is one. */
export function expectSse(t: Check, failure: SseFailure | undefined, requirement: string): void {
  if (failure) t.fail({ requirement, message: failure.message, expected: failure.expected, seen: failure.seen });
}

/** The echo node's (last) update of a stream; fails `requirement` when there is none. */
export function echoUpdate(t: Check, result: SseResult, requirement: string): Record<string, unknown> {
  expectSse(t, hasUpdateFromNode(result, { node: ECHO_NODE }), requirement);
  return nodeUpdates(result, ECHO_NODE).at(-1)!;
}

/** The content of the fixture's reply in an echo update ('' when it has none). */
export function replyContent(update: Record<string, unknown>): unknown {
  const messages = Array.isArray(update.messages) ? update.messages : [];
  const last: unknown = messages.at(-1);
  return typeof last === 'object' && last !== null && 'content' in last ? (last as { content: unknown }).content : undefined;
}

/** Runs the fixture in updates mode and returns its echo update. */
export async function runEcho(t: Check, run: Omit<RunRequest, 'streamMode'>, requirement: string): Promise<Record<string, unknown>> {
  const result = await streamRun(t, { ...run, streamMode: 'updates' }, requirement);
  return echoUpdate(t, result, requirement);
}
