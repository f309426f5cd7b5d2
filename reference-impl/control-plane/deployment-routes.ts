// Deployments: create, list, read, patch, delete (spec 4.1).
import type { FastifyInstance } from 'fastify';
import type { PoolClient } from '../db.ts';
import { conflict, HttpError, unprocessable } from '../http-errors.ts';
import { nameLengthIssue } from '../names.ts';
import { planAwaitingDelete } from '../platform-like/async-delete.ts';
import { pageLimit } from '../platform-like/small-pages.ts';
import type { Deployment, DeploymentCreateRequest } from './api-types.ts';
import { planCreate } from './deployment-create.ts';
import { planPatch, type PatchBody } from './deployment-patch.ts';
import { readDeploymentQuery, selectDeployments } from './listing.ts';
import { QueryReader, pathUuid } from './request-params.ts';
import { validBody } from './request-body.ts';
import { deploymentNotFound, requireDeployment, tenantOfRequest, type RouteDeps } from './route-deps.ts';

const nameTaken = (name: string) =>
  conflict(`A deployment named "${name}" already exists in this workspace. Choose another name, or PATCH the existing deployment.`);

/** Splits off `name` and `source`, which a PATCH may repeat but not change (checked in planPatch). */
function patchBody(raw: unknown): PatchBody {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return validBody<PatchBody>('DeploymentPatchRequest', raw);
  const { name, source, ...rest } = raw as Record<string, unknown>;
  return { ...validBody<PatchBody>('DeploymentPatchRequest', rest), name, source };
}

/** The deployment deleted, or marked AWAITING_DELETE when deletion is asynchronous (platform-like). */
async function deleteNowOrLater(deps: RouteDeps, tenantId: string, id: string): Promise<Deployment | undefined> {
  // FAULT cp.delete-keeps: answers 204 but keeps the deployment.
  if (deps.faults('cp.delete-keeps')) return requireDeployment(deps, tenantId, id);
  if (!deps.pendingDeletions) return deps.store.deleteDeployment(tenantId, id);
  const marked = await deps.store.changeDeployment(tenantId, id, planAwaitingDelete(deps.changeContext.clock()));
  if (marked) deps.pendingDeletions.schedule(tenantId, id);
  return marked?.result;
}

export function registerDeploymentRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { store, ctx } = deps;

  app.post('/v2/deployments', async (request, reply) => {
    const tenantId = tenantOfRequest(deps, request);
    const body = validBody<DeploymentCreateRequest>('DeploymentCreateRequest', request.body);
    const tooLong = nameLengthIssue(body.name, ['body', 'name']);
    if (tooLong.length > 0) throw unprocessable(tooLong);
    const { deployment, firstRevision } = planCreate(tenantId, body, deps.changeContext);
    if (await store.hasDeploymentNamed(tenantId, body.name)) throw nameTaken(body.name);
    // The tracing project (spec 1.A) is created with the deployment, all or nothing.
    const withProject = async (tx: PoolClient | undefined) => ctx.tracingProjects?.createProject(tenantId, body.name, tx);
    if ((await store.createDeployment(deployment, firstRevision, withProject)) === 'name-taken') throw nameTaken(body.name);
    return reply.code(201).send(deployment);
  });

  app.get('/v2/deployments', async (request) => {
    const tenantId = tenantOfRequest(deps, request);
    const asked = readDeploymentQuery(request.query);
    const query = { ...asked, limit: pageLimit(ctx.platformLike, asked.limit) };
    return { resources: await store.listDeployments(tenantId, (all) => selectDeployments(all, query)), offset: query.offset };
  });

  app.get('/v2/deployments/:deployment_id', async (request) => {
    const tenantId = tenantOfRequest(deps, request);
    return requireDeployment(deps, tenantId, pathUuid(request.params, 'deployment_id'));
  });

  app.patch('/v2/deployments/:deployment_id', async (request) => {
    const tenantId = tenantOfRequest(deps, request);
    const id = pathUuid(request.params, 'deployment_id');
    const body = patchBody(request.body);
    const tarballPath = body.source_revision_config?.source_tarball_path;
    const tarballGrant = typeof tarballPath === 'string' ? await store.findUploadByPath(id, tarballPath) : undefined;
    const outcome = await store.changeDeployment(tenantId, id, planPatch(body, { ...deps.changeContext, tarballGrant }));
    if (!outcome) throw deploymentNotFound(id);
    return outcome.result;
  });

  app.delete('/v2/deployments/:deployment_id', async (request, reply) => {
    const tenantId = tenantOfRequest(deps, request);
    const id = pathUuid(request.params, 'deployment_id');
    const reader = new QueryReader(request.query);
    const deleteTracingProject = reader.boolean('delete_tracing_project', false);
    reader.done();
    const deleted = await deleteNowOrLater(deps, tenantId, id);
    if (!deleted) throw deploymentNotFound(id);
    if (deleteTracingProject) {
      await ctx.tracingProjects?.deleteProject(tenantId, deleted.name).catch((error: unknown) => {
        // A project already gone is what the caller wants; anything else is a real failure.
        if (!(error instanceof HttpError && error.statusCode === 404)) throw error;
      });
    }
    return reply.code(204).send();
  });
}
