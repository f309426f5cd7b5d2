// The HTML reference served at /docs, rendered from the OpenAPI description so the two never
// disagree. Plain HTML and CSS: no scripts, nothing fetched from elsewhere.

type Json = Record<string, unknown>;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function schemaLink(schema: unknown): string {
  const target = (schema as { $ref?: string; items?: { $ref?: string } } | undefined) ?? {};
  const refName = (r: string | undefined) => r?.split('/').pop();
  const name = refName(target.$ref) ?? refName(target.items?.$ref);
  if (name === undefined) return `<code>${escape(JSON.stringify(schema ?? {}))}</code>`;
  const link = `<a href="#schema-${escape(name)}">${escape(name)}</a>`;
  return target.items ? `array of ${link}` : link;
}

function operationHtml(path: string, method: string, op: Json): string {
  const body = (op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.['application/json']?.schema;
  const responses = Object.entries((op.responses as Record<string, Json>) ?? {}).map(([status, response]) => {
    const content = Object.entries((response.content as Record<string, { schema?: unknown }>) ?? {})[0];
    const shape = content ? ` <span class="type">${escape(content[0])}</span> ${schemaLink(content[1].schema)}` : '';
    return `<li><b>${escape(status)}</b> ${escape(String(response.description ?? ''))}${shape}</li>`;
  });
  const access = Array.isArray(op.security) && op.security.length === 0 ? 'no key needed' : 'needs X-Api-Key';
  return `<section class="op" id="${escape(String(op.operationId))}">
<h3><span class="method ${escape(method)}">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code> <small>${access}</small></h3>
<p>${escape(String(op.summary ?? ''))}</p>
${body ? `<p>Request body: ${schemaLink(body)}</p>` : ''}
<ul>${responses.join('')}</ul>
</section>`;
}

export function renderDocsPage(openApi: Json): string {
  const info = openApi.info as { title: string; version: string; description: string };
  const paths = openApi.paths as Record<string, Record<string, Json>>;
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = (op.tags as string[] | undefined)?.[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(path, method, op)]);
    }
  }
  const schemas = Object.entries(((openApi.components as Json).schemas as Json) ?? {});
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
<p>Machine-readable: <a href="openapi.json">openapi.json</a>. Authentication: header <code>X-Api-Key</code>.</p>
${[...byTag.entries()].map(([tag, ops]) => `<h2>${escape(tag)}</h2>\n${ops.join('\n')}`).join('\n')}
<h2>Schemas</h2>
${schemas.map(([name, schema]) => `<section id="schema-${escape(name)}"><h3>${escape(name)}</h3><pre>${escape(JSON.stringify(schema, null, 2))}</pre></section>`).join('\n')}
</body></html>
`;
}
