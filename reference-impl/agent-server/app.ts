// The reference agent server (spec interface B): graphs, assistants with versions, threads,
// streamed runs, system routes. Storage is PostgreSQL when the context has a pool, else memory.
import Fastify, { type FastifyInstance } from 'fastify';
import { authenticate } from '../auth.ts';
import type { ReferenceContext } from '../context.ts';
import { FRAMEWORK_OPTIONS, installErrorHandling } from '../http-errors.ts';
import { installPlatformTraffic } from '../platform-like/traffic.ts';
import { DEFAULT_JSON_LIMITS, installJsonBody } from '../json-body.ts';
import type { AgentServerDeps } from './deps.ts';
import { loadGraphs, type GraphRegistry } from './graph-registry.ts';
import { MemoryStore } from './memory-store.ts';
import { PUBLIC_PATHS } from './openapi.ts';
import { PostgresStore } from './postgres-store.ts';
import { registerAssistantRoutes } from './routes/assistants.ts';
import { registerRunRoutes } from './routes/runs.ts';
import { registerSystemRoutes } from './routes/system.ts';
import { registerThreadRoutes } from './routes/threads.ts';
import type { AgentStore } from './store.ts';

/** Largest accepted request body; a larger one is answered 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Each graph's default assistant, created by the system when missing. */
async function ensureDefaultAssistants(store: AgentStore, graphs: GraphRegistry): Promise<void> {
  for (const graphId of graphs.ids) {
    await store.createAssistant(graphs.defaultAssistantId(graphId), {
      graph_id: graphId,
      name: graphId,
      description: null,
      context: {},
      metadata: { created_by: 'system' },
      config: {},
    });
  }
}

export async function buildAgentServerApp(ctx: ReferenceContext): Promise<FastifyInstance> {
  const graphs = await loadGraphs(ctx.graphConfigPath);
  const store: AgentStore = ctx.pool ? await PostgresStore.open(ctx.pool) : new MemoryStore();
  await ensureDefaultAssistants(store, graphs);
  const deps: AgentServerDeps = { ctx, store, graphs, faults: ctx.faults };

  // Closing drops every connection, open streams included: a fault may keep a stream open
  // forever, and a client may leave a connection without a request that would hold it too.
  const app = Fastify({ ...FRAMEWORK_OPTIONS, logger: ctx.logger, forceCloseConnections: true, bodyLimit: BODY_LIMIT_BYTES });
  installErrorHandling(app);
  installPlatformTraffic(app, ctx.platformLike, 'agent-server');

  // An empty body labelled JSON counts as no body: a route that needs a body then answers 422
  // "Field required", one that does not just works.
  installJsonBody(app, { ...DEFAULT_JSON_LIMITS, bodyBytes: BODY_LIMIT_BYTES });

  // Every route but the public system ones needs a valid X-Api-Key (README: "Authentication").
  app.addHook('onRequest', async (request) => {
    if (!PUBLIC_PATHS.has(request.routeOptions.url ?? '')) authenticate(ctx.auth, request);
  });
  registerSystemRoutes(app, deps);
  registerAssistantRoutes(app, deps);
  registerThreadRoutes(app, deps);
  registerRunRoutes(app, deps);
  return app;
}
