// GET /openapi.json and the HTML reference at GET /docs, rendered from the same OpenAPI document so
// the two never disagree. Every listener serves both publicly: they describe the API and hold no
// data. Plain HTML and CSS: no scripts, nothing fetched from elsewhere.
import type { FastifyInstance } from 'fastify';

type Json = Record<string, unknown>;

/** The parts of an OpenAPI document the page reads. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  /** A path-only first server URL (e.g. `/api-host`) prefixes every path shown. */
  servers?: { url: string }[];
  paths: Record<string, Record<string, object>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, object> };
  security?: object[];
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function schemaLink(schema: unknown): string {
  const target = (schema as { $ref?: string; items?: { $ref?: string } } | undefined) ?? {};
  const refName = (r: string | undefined) => r?.split('/').pop();
  const name = refName(target.$ref) ?? refName(target.items?.$ref);
  if (name === undefined) return `<code>${escape(JSON.stringify(schema ?? {}))}</code>`;
  const link = `<a href="#schema-${escape(name)}">${escape(name)}</a>`;
  return target.items ? `array of ${link}` : link;
}

function operationHtml(path: string, method: string, op: Json, keyHeader: string): string {
  const body = (op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.['application/json']?.schema;
  const responses = Object.entries((op.responses as Record<string, Json>) ?? {}).map(([status, response]) => {
    const content = Object.entries((response.content as Record<string, { schema?: unknown }>) ?? {})[0];
    const shape = content ? ` <span class="type">${escape(content[0])}</span> ${schemaLink(content[1].schema)}` : '';
    return `<li><b>${escape(status)}</b> ${escape(String(response.description ?? ''))}${shape}</li>`;
  });
  const access = Array.isArray(op.security) && op.security.length === 0 ? 'no key needed' : `needs ${escape(keyHeader)}`;
  const id = typeof op.operationId === 'string' ? op.operationId : `${method}${path}`;
  return `<section class="op" id="${escape(id)}">
<h3><span class="method ${escape(method)}">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code> <small>${access}</small></h3>
<p>${escape(String(op.summary ?? ''))}</p>
${body ? `<p>Request body: ${schemaLink(body)}</p>` : ''}
<ul>${responses.join('')}</ul>
</section>`;
}

/** The header names of the document's API-key security schemes, e.g. `X-Api-Key`. */
function keyHeaders(document: OpenApiDocument): string[] {
  return Object.values(document.components?.securitySchemes ?? {})
    .map((scheme) => scheme as { type?: string; in?: string; name?: string })
    .flatMap((scheme) => (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name ? [scheme.name] : []));
}

export function renderDocsPage(document: OpenApiDocument): string {
  const { info } = document;
  const server = document.servers?.[0]?.url ?? '';
  const prefix = server.startsWith('/') ? server.replace(/\/$/, '') : '';
  const headers = keyHeaders(document);
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods as Record<string, Json>)) {
      const tag = (op.tags as string[] | undefined)?.[0] ?? 'Operations';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(prefix + path, method, op, headers[0] ?? 'a key')]);
    }
  }
  const schemas = Object.entries(document.components?.schemas ?? {});
  const authentication = headers.length > 0 ? ` Authentication: header ${headers.map((h) => `<code>${escape(h)}</code>`).join(', ')}.` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(info.title)} ${escape(info.version)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.4}
.op{border-top:1px solid #ddd;padding:.5rem 0}.method{display:inline-block;min-width:4.5rem;font-family:monospace}
.get{color:#0a6}.post{color:#06c}.patch{color:#a60}.delete{color:#c22}small,.type{color:#777}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;font-size:.85rem}
</style></head><body>
<h1>${escape(info.title)} <small>${escape(info.version)}</small></h1>
<p>${escape(info.description)}</p>
<p>Machine-readable: <a href="openapi.json">openapi.json</a>.${authentication}</p>
${[...byTag.entries()].map(([tag, ops]) => `<h2>${escape(tag)}</h2>\n${ops.join('\n')}`).join('\n')}
<h2>Schemas</h2>
${schemas.map(([name, schema]) => `<section id="schema-${escape(name)}"><h3>${escape(name)}</h3><pre>${escape(JSON.stringify(schema, null, 2))}</pre></section>`).join('\n')}
</body></html>
`;
}

/**
 * Serves the document `build` makes at GET /openapi.json and its HTML rendering at GET /docs. Both
 * are made on the first request for either, not at start: every listener's start paid for them
 * (a tenth of the reference's start), and a certification seldom reads them.
 */
export function registerDocs(app: FastifyInstance, build: () => OpenApiDocument): void {
  let made: { document: OpenApiDocument; page: string } | undefined;
  const docs = () => {
    if (!made) {
      const document = build();
      made = { document, page: renderDocsPage(document) };
    }
    return made;
  };
  app.get('/openapi.json', async () => docs().document);
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(docs().page));
}
