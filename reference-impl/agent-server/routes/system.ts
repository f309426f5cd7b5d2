// System routes: health, server info, and the API reference (spec 1.B "System", 4.2 `/docs`).
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AgentServerDeps } from '../deps.ts';
import { renderDocsPage } from '../docs-page.ts';
import { buildOpenApi, PUBLIC_PATHS } from '../openapi.ts';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export function registerSystemRoutes(app: FastifyInstance, deps: AgentServerDeps): void {
  const openApi = buildOpenApi(PACKAGE_VERSION, deps.graphs.ids);
  const docsPage = renderDocsPage(openApi);

  app.get('/ok', async () => ({ ok: true }));

  app.get('/info', async () => ({
    version: PACKAGE_VERSION,
    graphs: deps.graphs.ids,
    storage: deps.store.kind,
    auth: { header: 'X-Api-Key', public_paths: [...PUBLIC_PATHS] },
    flags: { assistants: true, threads: true, crons: false, store: false },
  }));

  app.get('/openapi.json', async () => openApi);

  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(docsPage));
}
