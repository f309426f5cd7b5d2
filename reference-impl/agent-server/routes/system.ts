// System routes: health, server info, and the API reference (spec 1.B "System", 4.2 `/docs`).
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { registerDocs } from '../../docs.ts';
import type { AgentServerDeps } from '../deps.ts';
import { buildOpenApi, PUBLIC_PATHS } from '../openapi.ts';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export function registerSystemRoutes(app: FastifyInstance, deps: AgentServerDeps): void {
  app.get('/ok', async () => ({ ok: true }));

  app.get('/info', async () => ({
    version: PACKAGE_VERSION,
    graphs: deps.graphs.ids,
    storage: deps.store.kind,
    auth: { header: 'X-Api-Key', public_paths: [...PUBLIC_PATHS] },
    flags: { assistants: true, threads: true, crons: false, store: false },
  }));

  registerDocs(app, () => buildOpenApi(PACKAGE_VERSION, deps.graphs.ids));
}
