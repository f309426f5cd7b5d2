// The control-plane listener (spec interface A): deployments, revisions, uploads, integrations and
// listeners, with /docs and /openapi.json. Self-hosted installations serve it under `/api-host`.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ReferenceContext } from '../context.ts';
import { registerDocs } from '../docs.ts';
import { FRAMEWORK_OPTIONS, installErrorHandling } from '../http-errors.ts';
import { DEFAULT_JSON_LIMITS, installJsonBody } from '../json-body.ts';
import { registerCatalogRoutes } from './catalog-routes.ts';
import { registerDeploymentRoutes } from './deployment-routes.ts';
import { installFaultResponses } from './fault-responses.ts';
import { faultsOf } from './faults.ts';
import { openApiDocument } from './openapi.ts';
import { pendingDeletions } from '../platform-like/async-delete.ts';
import { PLATFORM_DEFAULTS } from '../platform-like/behaviours.ts';
import { seedExistingDeployments } from '../platform-like/many-deployments.ts';
import { installPlatformTraffic } from '../platform-like/traffic.ts';
import { startProgressWorker } from './progress-worker.ts';
import { registerRevisionRoutes } from './revision-routes.ts';
import { makeChangeContext, tenantOfRequest, type RouteDeps } from './route-deps.ts';
import { openStore } from './store-factory.ts';
import { registerUploadTarget, registerUploadUrlRoutes, UPLOAD_PATH } from './upload-routes.ts';

/** Self-hosted installations serve the control plane under this prefix (spec section 1.A). */
export const SELF_HOSTED_PREFIX = '/api-host';

/** Largest JSON body accepted; larger ones are answered 413. */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** Logger options: the context's, with upload tokens (credentials in the URL) kept out of logs. */
function loggerOf(ctx: ReferenceContext): FastifyServerOptions['logger'] {
  if (!ctx.logger || typeof ctx.logger !== 'object') return ctx.logger;
  const hideToken = (url: string) => (url.includes(UPLOAD_PATH) ? url.replace(/(\/uploads\/source-tarballs\/)[^/?]+/, '$1[redacted]') : url);
  return {
    ...ctx.logger,
    serializers: {
      req: (request: { method: string; url: string; host?: string; ip?: string }) => ({
        method: request.method,
        url: hideToken(request.url),
        host: request.host,
        remoteAddress: request.ip,
      }),
    },
  };
}

export async function buildControlPlaneApp(ctx: ReferenceContext): Promise<FastifyInstance> {
  const faults = faultsOf(ctx);
  const store = await openStore(ctx, { faults });
  const app = Fastify({ ...FRAMEWORK_OPTIONS, logger: loggerOf(ctx), bodyLimit: JSON_BODY_LIMIT });
  installErrorHandling(app);
  installFaultResponses(app, faults);
  installPlatformTraffic(app, ctx.platformLike, 'control-plane');
  const prefix = ctx.mode === 'self-hosted' ? SELF_HOSTED_PREFIX : '';
  const platform = ctx.platformLike;
  const pending = platform.has('async-delete')
    ? pendingDeletions(store, platform.scaled(PLATFORM_DEFAULTS.deleteLingerMs), (error) => app.log.warn({ err: { message: (error as Error).message } }, 'asynchronous deletion failed'))
    : undefined;
  const deps: RouteDeps = { ctx, store, faults, prefix, changeContext: makeChangeContext(ctx, faults), ...(pending ? { pendingDeletions: pending } : {}) };
  if (platform.has('many-deployments')) await seedExistingDeployments(store, ctx.auth.grants[0]!.tenants[0]!, deps.changeContext);

  await app.register(
    async (scope) => {
      installJsonBody(scope, { ...DEFAULT_JSON_LIMITS, bodyBytes: JSON_BODY_LIMIT });
      registerDocs(scope, () => openApiDocument(prefix));
      registerUploadTarget(scope, deps);
      await scope.register(async (api) => {
        // Checked before the body is read, so an unauthenticated client gets 401/403 whatever it sends.
        api.addHook('onRequest', async (request) => void tenantOfRequest(deps, request));
        registerDeploymentRoutes(api, deps);
        registerRevisionRoutes(api, deps);
        registerUploadUrlRoutes(api, deps);
        registerCatalogRoutes(api, deps);
      });
    },
    { prefix },
  );

  const worker = startProgressWorker(store, { phaseMs: ctx.phaseMs, faults, log: app.log });
  const stop = async () => {
    pending?.stop();
    await worker.stop();
    await store.close();
  };
  app.addHook('onClose', stop);
  ctx.onClose(stop);
  return app;
}
