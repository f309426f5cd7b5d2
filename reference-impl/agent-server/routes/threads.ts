// Threads: the accumulated state of a group of runs (spec 1.B, 4.2).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ThreadCreateRequest, ThreadSearchRequest } from '../../../schemas/index.ts';
import { conflict, notFound } from '../../http-errors.ts';
import type { AgentServerDeps } from '../deps.ts';
import { checkBody, checkPage, checkUuidParam } from '../request-checks.ts';
import type { ThreadRecord } from '../store.ts';
import { threadStateView, threadView } from '../views.ts';

type IdParams = { Params: { thread_id: string } };

export function threadNotFound(threadId: string) {
  return notFound(`Thread ${threadId} not found. Create one with POST /threads.`);
}

/** The thread a path names: 422 for a malformed id, 404 for an unknown one. */
export async function findThread(deps: AgentServerDeps, rawId: string): Promise<ThreadRecord> {
  const threadId = checkUuidParam('thread_id', rawId);
  const thread = await deps.store.getThread(threadId);
  if (!thread) throw threadNotFound(threadId);
  return thread;
}

export function registerThreadRoutes(app: FastifyInstance, deps: AgentServerDeps): void {
  app.post('/threads', async (request) => {
    const body = checkBody<ThreadCreateRequest>('ThreadCreateRequest', request.body ?? {});
    const threadId = body.thread_id?.toLowerCase() ?? randomUUID();
    const { thread, created } = await deps.store.createThread(threadId, body.metadata ?? {});
    if (!created && (body.if_exists ?? 'raise') === 'raise') {
      throw conflict(`Thread ${threadId} already exists. Send "if_exists": "do_nothing" to get the existing thread instead.`);
    }
    return threadView(thread);
  });

  app.get<IdParams>('/threads/:thread_id', async (request) => threadView(await findThread(deps, request.params.thread_id)));

  app.get<IdParams>('/threads/:thread_id/state', async (request) => threadStateView(await findThread(deps, request.params.thread_id)));

  app.delete<IdParams>('/threads/:thread_id', async (request, reply) => {
    const threadId = checkUuidParam('thread_id', request.params.thread_id);
    if (!(await deps.store.deleteThread(threadId))) throw threadNotFound(threadId);
    return reply.code(204).send();
  });

  app.post('/threads/search', async (request) => {
    const body = checkBody<ThreadSearchRequest>('ThreadSearchRequest', request.body ?? {});
    const page = checkPage(body, 10);
    const threads = await deps.store.searchThreads({ ...page, ...(body.metadata && { metadata: body.metadata }) });
    return threads.map(threadView);
  });
}
