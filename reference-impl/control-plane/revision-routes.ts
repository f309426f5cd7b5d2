// Revisions of a deployment: listing (newest first) and one revision (spec 2.6, 4.1).
import type { FastifyInstance } from 'fastify';
import { notFound } from '../http-errors.ts';
import { pageLimit } from '../platform-like/small-pages.ts';
import { readRevisionQuery, selectRevisions } from './listing.ts';
import { pathUuid } from './request-params.ts';
import { requireDeployment, tenantOfRequest, type RouteDeps } from './route-deps.ts';

export function registerRevisionRoutes(app: FastifyInstance, deps: RouteDeps): void {
  app.get('/v2/deployments/:deployment_id/revisions', async (request) => {
    const tenantId = tenantOfRequest(deps, request);
    const id = pathUuid(request.params, 'deployment_id');
    const asked = readRevisionQuery(request.query);
    const query = { ...asked, limit: pageLimit(deps.ctx.platformLike, asked.limit) };
    await requireDeployment(deps, tenantId, id);
    const revisions = await deps.store.listRevisions(id);
    // FAULT cp.revisions-oldest-first: the listing order is reversed.
    if (deps.faults('cp.revisions-oldest-first')) revisions.reverse();
    return { resources: selectRevisions(revisions, query).map((r) => r.revision), offset: query.offset };
  });

  app.get('/v2/deployments/:deployment_id/revisions/:revision_id', async (request) => {
    const tenantId = tenantOfRequest(deps, request);
    const id = pathUuid(request.params, 'deployment_id');
    const revisionId = pathUuid(request.params, 'revision_id');
    await requireDeployment(deps, tenantId, id);
    const found = (await deps.store.listRevisions(id)).find((r) => r.revision.id === revisionId);
    if (!found) throw notFound(`Revision ID ${revisionId} not found.`);
    return found.revision;
  });
}
