// GET /openapi.json and a readable GET /docs page listing every operation. Both are public: they
// describe the API and hold no data.
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from './openapi.ts';
import type { RouteDeps } from './route-deps.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface Operation {
  summary: string;
  responses: Record<string, { description: string }>;
}

function docsPage(document: ReturnType<typeof openApiDocument>, prefix: string): string {
  const rows = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations as Record<string, Operation>).map(
      ([method, op]) =>
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(prefix + path)}</code></td><td>${escapeHtml(op.summary)}</td>` +
        `<td>${Object.entries(op.responses).map(([code, r]) => `<b>${code}</b> ${escapeHtml(r.description)}`).join('<br>')}</td></tr>`,
    ),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(document.info.title)}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.4em;vertical-align:top;text-align:left}</style>
</head><body>
<h1>${escapeHtml(document.info.title)}</h1>
<p>${escapeHtml(document.info.description)} The machine-readable description, with every schema, is <a href="openapi.json">openapi.json</a>.</p>
<table><tr><th>Method</th><th>Path</th><th>What it does</th><th>Responses</th></tr>
${rows.join('\n')}
</table></body></html>`;
}

export function registerDocsRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const document = openApiDocument(deps.prefix);
  const page = docsPage(document, deps.prefix);
  app.get('/openapi.json', async () => document);
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
}
