// The experiment-upload listener of the reference implementation: the experiment upload (spec interface C)
// with the dataset and session reads around it, and the tracing projects the control plane
// creates for deployments (set on `ctx.tracingProjects`).
import Fastify, { type FastifyInstance } from 'fastify';
import { tenantOf } from '../auth.ts';
import type { ReferenceContext } from '../context.ts';
import { registerDocs } from '../docs.ts';
import { FRAMEWORK_OPTIONS, installErrorHandling } from '../http-errors.ts';
import { installPlatformTraffic } from '../platform-like/traffic.ts';
import { DEFAULT_JSON_LIMITS, installJsonBody } from '../json-body.ts';
import { faultsOf } from './faults.ts';
import { memoryStore } from './memory.ts';
import { openApiDocument } from './openapi.ts';
import { postgresStore } from './postgres.ts';
import { tracingProjects } from './projects.ts';
import { registerRoutes } from './routes.ts';

/** Largest accepted request body; a larger one is answered 413. */
export const BODY_LIMIT_BYTES = 10 * 1024 * 1024;

export async function buildExperimentUploadApp(ctx: ReferenceContext): Promise<FastifyInstance> {
  const store = ctx.pool ? await postgresStore(ctx.pool) : memoryStore();
  ctx.tracingProjects = tracingProjects(store);
  const app = Fastify({ ...FRAMEWORK_OPTIONS, logger: ctx.logger, bodyLimit: BODY_LIMIT_BYTES });
  installErrorHandling(app);
  installPlatformTraffic(app, ctx.platformLike, 'experiment-upload');
  installJsonBody(app, { ...DEFAULT_JSON_LIMITS, bodyBytes: BODY_LIMIT_BYTES, refuseEmpty: true });
  registerDocs(app, openApiDocument);
  await app.register(async (api) => {
    // Checked before the body is read, so an unauthenticated client gets 401 whatever it sends.
    api.addHook('onRequest', async (request) => void tenantOf(ctx.auth, request));
    registerRoutes(api, { store, auth: ctx.auth, faults: faultsOf(ctx), statsDelayMs: ctx.statsDelayMs });
  });
  return app;
}
