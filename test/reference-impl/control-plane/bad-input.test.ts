// Bad input never gets a 5xx, and a refused request changes nothing: generated requests (arbitrary
// JSON, valid bodies with one field replaced by anything, oversized strings, ids that are not
// UUIDs, odd query strings) sent to every endpoint, on both backends, comparing a snapshot of the
// stored state before and after each refusal.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createBodies, createDeployment, startOn, type ControlPlaneServer } from './control-plane-server.ts';

const BIG = 'x'.repeat(200_000);
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(BIG), fc.string({ maxLength: 40 }), fc.constant(null));

/** A valid body with one (possibly nested) field replaced by anything, or removed. */
function mutated(valid: Record<string, unknown>) {
  const paths: string[][] = [];
  const walk = (value: unknown, path: string[]) => {
    paths.push(path);
    if (value && typeof value === 'object' && !Array.isArray(value)) for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
  };
  walk(valid, []);
  return fc.record({ path: fc.constantFrom(...paths.filter((p) => p.length > 0)), value: fc.option(anyJson, { nil: undefined }) }).map(({ path, value }) => {
    const copy = structuredClone(valid);
    let node = copy as Record<string, unknown>;
    for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
    if (value === undefined) delete node[path.at(-1)!];
    else node[path.at(-1)!] = value;
    return copy;
  });
}

const patchBody = fc.oneof(
  anyJson,
  fc.record(
    {
      name: anyJson,
      source: anyJson,
      revision_source: fc.oneof(anyJson, fc.constantFrom('gitforge', 'internal_source', 'external_container')),
      source_config: fc.oneof(anyJson, fc.record({ repo_url: anyJson, build_on_push: anyJson, resource_spec: anyJson, custom_url: anyJson }, { requiredKeys: [] })),
      source_revision_config: fc.oneof(anyJson, fc.record({ repo_ref: anyJson, image_uri: anyJson, source_tarball_path: anyJson, graph_config_path: anyJson }, { requiredKeys: [] })),
      secrets: fc.oneof(anyJson, fc.array(fc.record({ name: anyJson, value: anyJson }, { requiredKeys: [] }), { maxLength: 2 })),
      secret_references: anyJson,
    },
    { requiredKeys: [] },
  ),
);

const query = fc
  .dictionary(
    fc.oneof(fc.constantFrom('limit', 'offset', 'status', 'name_contains', 'deployment_ids', 'deployment_type', 'image_version', 'delete_tracing_project'), fc.string({ maxLength: 5 })),
    fc.oneof(fc.string({ maxLength: 20 }), fc.integer().map(String), fc.constant('1e3')),
    { maxKeys: 3 },
  )
  .map((params) => {
    const text = new URLSearchParams(params).toString();
    return text ? `?${text}` : '';
  });

describe.each(BACKENDS)('bad input on %s', (backend) => {
  let server: ControlPlaneServer;
  let fixture: { id: string; latest_revision_id: string };
  beforeAll(async () => {
    // Test servers' phases are long: nothing moves on its own while snapshots are compared.
    server = await startOn(backend);
    fixture = await createDeployment(server, createBodies.gitforge());
  });
  afterAll(() => server.close());

  const snapshot = async () => {
    const deployments = await server.request('GET', '/v2/deployments?limit=100');
    const revisions = await server.request('GET', `/v2/deployments/${fixture.id}/revisions?limit=100`);
    return { deployments: deployments.body, revisions: revisions.body };
  };

  it('never answers 5xx, and a refusal changes nothing', async () => {
    const id = fc.oneof(fc.constant(fixture.id), fc.uuid().map(String), fc.string({ maxLength: 40 }).map(encodeURIComponent), fc.constant(fixture.id.toUpperCase()));
    const requestArb = fc.oneof(
      fc.record({ method: fc.constant('POST'), path: fc.constant('/v2/deployments'), body: fc.oneof(anyJson, mutated(createBodies.gitforge('generated')), mutated(createBodies.external_container('generated'))) }),
      fc.record({ method: fc.constant('PATCH'), path: id.map((i) => `/v2/deployments/${i}`), body: patchBody }),
      fc.record({ method: fc.constant('PATCH'), path: fc.constant(`/v2/deployments/${fixture.id}`), body: mutated({ source_config: { repo_url: 'https://example.com/org/agent', build_on_push: false }, source_revision_config: { repo_ref: 'main' }, secrets: [{ name: 'A', value: 'b' }] }) }),
      fc.record({ method: fc.constantFrom('GET', 'DELETE'), path: fc.tuple(id, query).map(([i, q]) => `/v2/deployments/${i.toLowerCase() === fixture.id ? randomUUID() : i}${q}`), body: fc.constant(undefined) }),
      fc.record({ method: fc.constant('GET'), path: fc.tuple(id, query).map(([i, q]) => `/v2/deployments/${i}${q}`), body: fc.constant(undefined) }),
      fc.record({ method: fc.constant('GET'), path: query.map((q) => `/v2/deployments${q}`), body: fc.constant(undefined) }),
      fc.record({ method: fc.constant('GET'), path: fc.tuple(id, query).map(([i, q]) => `/v2/deployments/${i}/revisions${q}`), body: fc.constant(undefined) }),
      fc.record({ method: fc.constant('GET'), path: fc.tuple(id, id).map(([i, r]) => `/v2/deployments/${i}/revisions/${r === fixture.id ? fixture.latest_revision_id : r}`), body: fc.constant(undefined) }),
      fc.record({ method: fc.constant('POST'), path: fc.tuple(id, fc.constantFrom('/v2', '')).map(([i, v]) => `${v}/deployments/${i}/upload-url`), body: fc.option(anyJson, { nil: undefined }) }),
      fc.record({ method: fc.constant('GET'), path: fc.tuple(fc.constantFrom('/v1/integrations/gitforge/install', '/v2/listeners'), query).map(([p, q]) => `${p}${q}`), body: fc.constant(undefined) }),
      fc.record({ method: fc.constantFrom('POST', 'PATCH'), path: fc.constantFrom('/v2/deployments', `/v2/deployments/${fixture.id}`), body: fc.string({ maxLength: 30 }) }),
    );
    let before = await snapshot();
    await fc.assert(
      fc.asyncProperty(requestArb, async ({ method, path, body }) => {
        const reply = await server.request(method, path, body);
        expect(reply.status, `${method} ${path} → ${reply.text.slice(0, 300)}`).toBeLessThan(500);
        const after = await snapshot();
        if (reply.status >= 400) {
          expect(typeof reply.body?.detail === 'string' || Array.isArray(reply.body?.detail), reply.text.slice(0, 200)).toBe(true);
          expect(after, `${method} ${path} was refused (${reply.status}) but changed the stored state`).toEqual(before);
        }
        before = after;
      }),
      { numRuns: 80 },
    );
  });
});
