// Runs of the fixture graph over HTTP: the request, its stream or its refusal. The fixture
// (`echo`, profile fixtures.graphId) has one node named `echo` whose update is
// {"messages": [{"type": "ai", "content": <content of the last message>}], "context": <the run's effective context>}.
import { type Check, type FailureSpec, type SseResult, describeResponse } from '../../../harness/conformance/index.ts';

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

/** A failed attempt at a run: the failure, naming the rule whose statement it breaks. */
export type RunRefusal = FailureSpec & { requirement: string };

/** A run that streamed, or why it did not (its `requirement` is `requirement`). */
export type Attempted = { result: SseResult } | { refused: RunRefusal };

/** Streams a run without judging it: a run that does not stream is returned as a refusal of `requirement`. */
export async function attemptStream(t: Check, run: RunRequest, requirement = runRule(run)): Promise<Attempted> {
  const body = { assistant_id: run.assistantId, input: run.input, ...(run.streamMode !== undefined ? { stream_mode: run.streamMode } : {}) };
  const answer = await t.stream(t.as, { method: 'POST', path: runPath(run.threadId), body });
  if ('events' in answer) return { result: answer };
  // A refusal of one form of the request (a string stream_mode, say) names the rule that form
  // breaks (requirements/attribution.yaml), not the run rule this step relies on.
  return {
    refused: t.attribute(answer, {
      requirement,
      message: `POST ${runPath(run.threadId)} with stream_mode ${JSON.stringify(run.streamMode ?? null)} did not stream: ${answer.response ? `it answered ${answer.response.status}` : (answer.error ?? 'no response')}.`,
      expected: 'HTTP 2xx with a text/event-stream body',
      seen: describeResponse(answer),
    }),
  };
}

/** The content of the fixture's reply in an echo update ('' when it has none). */
export function replyContent(update: Record<string, unknown>): unknown {
  const messages = Array.isArray(update.messages) ? update.messages : [];
  const last: unknown = messages.at(-1);
  return typeof last === 'object' && last !== null && 'content' in last ? (last as { content: unknown }).content : undefined;
}
