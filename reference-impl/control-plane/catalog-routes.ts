// Integrations and listeners (field notes: `[{id, installation_id, name}]` and `{resources,
// offset}`). The reference implementation has one of each per tenant, derived from the tenant id
// so every process sharing a database reports the same ones: a gitforge integration when hosted,
// a cluster listener when self-hosted.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { readPageQuery } from './listing.ts';
import { tenantOfRequest, type RouteDeps } from './route-deps.ts';

/** A stable UUID-shaped id for `purpose` of `tenantId`. */
function derivedId(purpose: string, tenantId: string): string {
  const hex = createHash('sha256').update(`${purpose}:${tenantId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const CATALOG_CREATED_AT = '2024-01-01T00:00:00.000Z';

export function registerCatalogRoutes(app: FastifyInstance, deps: RouteDeps): void {
  app.get('/v1/integrations/gitforge/install', async (request) => {
    const tenantId = tenantOfRequest(deps, request);
    // gitforge is hosted only: a self-hosted installation has no gitforge integration.
    if (deps.ctx.mode === 'self-hosted') return [];
    const id = derivedId('gitforge-integration', tenantId);
    return [{ id, installation_id: parseInt(id.slice(0, 7), 16), name: 'reference-gitforge' }];
  });

  app.get('/v2/listeners', async (request) => {
    const tenantId = tenantOfRequest(deps, request);
    const page = readPageQuery(request.query);
    // Listeners serve self-hosted (external_container) deployments only.
    const listeners =
      deps.ctx.mode === 'self-hosted'
        ? [
            {
              id: derivedId('listener', tenantId),
              tenant_id: tenantId,
              compute_type: 'cluster',
              compute_config: { cluster_namespaces: ['default'] },
              created_at: CATALOG_CREATED_AT,
              updated_at: CATALOG_CREATED_AT,
            },
          ]
        : [];
    return { resources: listeners.slice(page.offset, page.offset + page.limit), offset: page.offset };
  });
}
