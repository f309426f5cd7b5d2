// Streamed runs (spec 4.2, 6): on a thread (state accumulates) or stateless. Everything a run
// needs is checked before the stream opens, so a refused request is a plain 4xx and changes
// nothing; then the graph runs inline and each step is sent as it finishes.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RunStreamRequest } from '../../../schemas/index.ts';
import { badRequest, notFound, unprocessable, type ValidationIssue } from '../../http-errors.ts';
import { resolveAssistant } from '../assistant-resolver.ts';
import type { AgentServerDeps } from '../deps.ts';
import { FAULTS } from '../faults.ts';
import type { GraphState, RegisteredGraph } from '../graph.ts';
import { messageIssues } from '../messages.ts';
import { checkBody } from '../request-checks.ts';
import { runGraph, type RunOutcome } from '../run-graph.ts';
import { SseStream } from '../sse.ts';
import { isStreamMode, RunEventEmitter, STREAM_MODES, type StreamMode } from '../stream-events.ts';
import type { AssistantRecord } from '../store.ts';
import { findThread } from './threads.ts';

type Json = Record<string, unknown>;

interface PreparedRun {
  assistant: AssistantRecord;
  registered: RegisteredGraph;
  modes: Set<StreamMode>;
  input: Json | null;
  context: Json;
}

/** The requested stream modes; `values` when none is given (or the list is empty). */
function streamModesOf(requested: RunStreamRequest['stream_mode'], faults: ReadonlySet<string>): Set<StreamMode> {
  if (requested === undefined) return new Set(['values']);
  // fault: a list of stream modes is refused.
  if (Array.isArray(requested) && faults.has(FAULTS.streamModeListRefused)) {
    throw unprocessable([{ loc: ['body', 'stream_mode'], msg: 'stream_mode must be a string.', type: 'string_type' }]);
  }
  const list = Array.isArray(requested) ? requested : [requested];
  const issues: ValidationIssue[] = [];
  list.forEach((mode, index) => {
    if (!isStreamMode(mode)) {
      const loc = Array.isArray(requested) ? ['body', 'stream_mode', index] : ['body', 'stream_mode'];
      issues.push({ loc, msg: `Unknown stream mode ${JSON.stringify(mode)}; expected one of ${STREAM_MODES.join(', ')}.`, type: 'stream_mode' });
    }
  });
  if (issues.length > 0) throw unprocessable(issues);
  return new Set(list.length > 0 ? (list as StreamMode[]) : ['values']);
}

async function prepareRun(deps: AgentServerDeps, rawBody: unknown): Promise<PreparedRun> {
  const body = checkBody<RunStreamRequest>('RunStreamRequest', rawBody);
  const modes = streamModesOf(body.stream_mode, deps.faults);
  const input = body.input ?? null;
  if (input !== null && 'messages' in input) {
    const issues = messageIssues(input.messages, ['body', 'input', 'messages']);
    if (issues.length > 0) throw unprocessable(issues);
  }
  const assistant = await resolveAssistant(deps, body.assistant_id);
  const registered = deps.graphs.get(assistant.graph_id);
  if (!registered) {
    throw notFound(`Graph ${JSON.stringify(assistant.graph_id)} of assistant ${assistant.assistant_id} is not served here; registered graphs: ${deps.graphs.ids.join(', ')}.`);
  }
  const context = { ...registered.graph.contextDefaults, ...assistant.context, ...body.context };
  const issues = deps.graphs.contextIssues(assistant.graph_id, context, ['body', 'context']);
  if (issues.length > 0) throw unprocessable(issues);
  return { assistant, registered, modes, input, context };
}

export function registerRunRoutes(app: FastifyInstance, deps: AgentServerDeps): void {
  /**
   * Opens the stream and runs the graph. `threadId` set: the run starts from the thread's state
   * and saves its end state there. `persistAs` is only set by the stateless-run fault.
   */
  async function stream(reply: FastifyReply, run: PreparedRun, threadId: string | undefined, persistAs?: string): Promise<void> {
    const runId = randomUUID();
    const shownThread = threadId ?? persistAs;
    const abort = new AbortController();
    const sse = new SseStream(reply.raw, {
      contentLocation: shownThread === undefined ? `/runs/${runId}` : `/threads/${shownThread}/runs/${runId}`,
      withIds: threadId !== undefined,
      faults: deps.faults,
      onClosed: () => abort.abort(),
    });
    reply.hijack();
    sse.open();
    const emitter = new RunEventEmitter(
      run.modes,
      { runId, threadId, assistantId: run.assistant.assistant_id, graphId: run.assistant.graph_id, nodeNames: run.registered.graph.nodes.map((n) => n.name) },
      (event, data) => sse.send(event, data),
      deps.faults,
    );
    emitter.start();
    const execute = (start: GraphState): Promise<RunOutcome> =>
      runGraph(
        run.registered.graph,
        start,
        run.input,
        { runId, threadId, assistantId: run.assistant.assistant_id, graphId: run.assistant.graph_id, context: run.context, signal: abort.signal },
        emitter,
      );
    try {
      let outcome: RunOutcome;
      if (threadId !== undefined) {
        outcome = await deps.store.withThreadLock(threadId, async () => {
          await deps.store.setThreadStatus(threadId, 'busy');
          const thread = await deps.store.getThread(threadId);
          const result = await execute(thread?.values ?? {});
          await deps.store.saveThreadState(threadId, result.state, result.error ? 'error' : 'idle');
          return result;
        });
      } else {
        outcome = await execute({});
        // fault: a stateless run leaves a thread holding its state.
        if (persistAs !== undefined) {
          await deps.store.createThread(persistAs, {});
          await deps.store.saveThreadState(persistAs, outcome.state, outcome.error ? 'error' : 'idle');
        }
      }
      emitter.finish(outcome);
    } catch (error) {
      reply.log.error({ err: { message: (error as Error).message, stack: (error as Error).stack } }, 'run failed outside the graph');
      sse.send('error', { error: 'InternalError', message: 'The server failed to run or save this run; see its log.' });
    }
    sse.end();
  }

  app.post<{ Params: { thread_id: string } }>('/threads/:thread_id/runs/stream', async (request, reply) => {
    const thread = await findThread(deps, request.params.thread_id);
    // fault: a thread run's stream_mode given as one string is refused (a list still works), as a real server did.
    const mode = (request.body as { stream_mode?: unknown } | null)?.stream_mode;
    if (typeof mode === 'string' && deps.faults.has(FAULTS.streamModeStringRefused)) throw badRequest('stream_mode must be a list of stream modes.');
    const run = await prepareRun(deps, request.body);
    await stream(reply, run, thread.thread_id);
  });

  app.post('/runs/stream', async (request, reply) => {
    const run = await prepareRun(deps, request.body);
    await stream(reply, run, undefined, deps.faults.has(FAULTS.statelessRunPersists) ? randomUUID() : undefined);
  });
}
