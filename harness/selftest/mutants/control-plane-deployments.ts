// Proxy mutants of the control plane (create, read, delete, sources, field applicability,
// immutability, graph_config_path, tags, upload-url, resource_spec, versioned paths): rules the
// fault switches do not break, each broken by a rewriting proxy in front of the reference.
// Rules that would get in other tests' way are scoped to the resources of the one property they
// bend (the create property's deployments are named `<run>-create-...`).
import { randomUUID } from 'node:crypto';
import { DEPLOYMENT_TYPES, SOURCES, type Source } from '../../../schemas/index.ts';
import { isObject } from '../../../schemas/is-object.ts';
import { editJson, editRequestJson, type ProxiedAnswer, type ProxiedRequest, type ProxyRules } from '../../proxy/proxy.ts';
import type { Family, Mutant } from '../subjects.ts';

type Json = Record<string, unknown>;

const DEPLOYMENTS = '/v2/deployments';
const ONE_DEPLOYMENT = /^\/v2\/deployments\/([^/?]+)(?:\?.*)?$/;

const pathOf = (r: ProxiedRequest) => r.path.split('?')[0]!;
const isCreate = (r: ProxiedRequest) => r.method === 'POST' && pathOf(r) === DEPLOYMENTS;
const isListing = (r: ProxiedRequest) => r.method === 'GET' && pathOf(r) === DEPLOYMENTS;
const deploymentIdOf = (r: ProxiedRequest) => ONE_DEPLOYMENT.exec(r.path)?.[1];
const is2xx = (a: ProxiedAnswer) => a.status >= 200 && a.status < 300;
const objectAt = (json: Json, key: string): Json => (isObject(json[key]) ? (json[key] as Json) : {});

function requestJson(r: ProxiedRequest): Json | undefined {
  if (r.body.length === 0) return undefined;
  try {
    const json: unknown = JSON.parse(r.body.toString('utf8'));
    return isObject(json) ? json : undefined;
  } catch {
    return undefined;
  }
}

function answerJson(a: ProxiedAnswer): unknown {
  if (!/json/.test(a.headers['content-type'] ?? '') || a.body.length === 0) return undefined;
  return JSON.parse(a.body.toString('utf8'));
}

function jsonAnswer(status: number, body: unknown): ProxiedAnswer {
  return { status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) };
}

/** A 422 in the shape of the spec's HTTPValidationError. */
const validationError = (loc: string[], msg: string) => jsonAnswer(422, { detail: [{ loc: ['body', ...loc], msg, type: 'value_error' }] });

/** A create body the proxy changes (`edit` may return a refusal instead). */
function onCreate(edit: (body: Json) => ProxiedAnswer | void): ProxyRules['request'] {
  return (r) => {
    const body = isCreate(r) ? requestJson(r) : undefined;
    if (!body) return r;
    let refusal: ProxiedAnswer | void = undefined;
    const edited = editRequestJson(r, (json) => {
      refusal = edit(json);
    });
    return refusal ?? edited;
  };
}

/** The sources of the deployments the proxy has seen answered, by id. */
class Sources {
  private readonly byId = new Map<string, Source>();
  note(a: ProxiedAnswer): void {
    const json = answerJson(a);
    if (isObject(json) && typeof json.id === 'string' && typeof json.source === 'string') this.byId.set(json.id, json.source as Source);
  }
  of(r: ProxiedRequest): Source | undefined {
    const id = deploymentIdOf(r);
    return id === undefined ? undefined : this.byId.get(id);
  }
}

/** A PATCH body of a deployment whose source the proxy knows, changed by `edit`. */
function onPatch(sources: Sources, edit: (body: Json, source: Source) => void): ProxyRules {
  return {
    request(r) {
      const source = r.method === 'PATCH' ? sources.of(r) : undefined;
      return source && requestJson(r) ? editRequestJson(r, (json) => edit(json, source)) : r;
    },
    answer(_r, a) {
      sources.note(a);
      return a;
    },
  };
}

/** Answers (create, GET, PATCH) about the create property's deployments, changed by `edit`. */
function createPropertyAnswers(edit: (json: Json) => void): ProxyRules {
  const ids = new Set<string>();
  return {
    answer(r, a) {
      if (!is2xx(a)) return a;
      const json = answerJson(a);
      if (!isObject(json) || typeof json.id !== 'string') return a;
      if (isCreate(r) && ofCreateProperty(json.name)) ids.add(json.id);
      return ids.has(json.id) && (isCreate(r) || deploymentIdOf(r) === json.id) ? editJson(a, edit) : a;
    },
  };
}

/** The create property's deployments are named `<run>-create-...`. */
const ofCreateProperty = (name: unknown) => String(name).includes('-create-');

/** The answer to a create of one of the create property's deployments. */
const createdByProperty = (r: ProxiedRequest, a: ProxiedAnswer) => {
  const json = isCreate(r) ? answerJson(a) : undefined;
  return isObject(json) && ofCreateProperty(json.name);
};

/** Deletes `fields` of a create body's `section` (the top level when undefined). */
function strip(json: Json, section: string | undefined, fields: string[]): void {
  const at = section === undefined ? json : json[section];
  if (isObject(at)) for (const field of fields) delete at[field];
}

/** A create answered 201 as if accepted: the body with the fields a Deployment adds. */
function fakeCreated(body: Json): ProxiedAnswer {
  const now = new Date().toISOString();
  return jsonAnswer(201, {
    ...body,
    id: randomUUID(),
    tenant_id: randomUUID(),
    created_at: now,
    updated_at: now,
    status: 'AWAITING_DATABASE',
    latest_revision_id: randomUUID(),
    active_revision_id: null,
  });
}

const BOUNDED_CPU = ['cpu', 'queue_cpu', 'cache_cpu'];
const BOUNDED_CPU_LIMITS = ['cpu_limit', 'queue_cpu_limit', 'cache_cpu_limit'];

/** Clamps `fields` of a resource_spec into [low, high] instead of refusing values outside. */
function clamp(spec: unknown, fields: string[], low: number, high: number): void {
  if (!isObject(spec)) return;
  for (const field of fields) {
    const value = spec[field];
    if (typeof value === 'number') spec[field] = Math.min(high, Math.max(low, value));
  }
}

/**
 * A PATCH trying to change an immutable field is answered 200 and the field reads changed ever
 * after: the proxy keeps the new value and reports it in the deployment's answers (the target
 * behind it never sees the change).
 */
function immutableChanges(path: string[]): ProxyRules {
  const changed = new Map<string, unknown>();
  const last = path[path.length - 1]!;
  const parentOf = (json: Json): Json | undefined => {
    const parent = path.slice(0, -1).reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), json);
    return isObject(parent) ? parent : undefined;
  };
  return {
    request(r) {
      const id = deploymentIdOf(r);
      const body = r.method === 'PATCH' ? requestJson(r) : undefined;
      const value = body ? parentOf(body)?.[last] : undefined;
      if (id === undefined || value === undefined || value === null) return r;
      changed.set(id, value);
      return editRequestJson(r, (json) => delete parentOf(json)![last]);
    },
    answer(r, a) {
      const id = deploymentIdOf(r);
      if (id === undefined || !changed.has(id) || !is2xx(a)) return a;
      return editJson(a, (json) => {
        const parent = parentOf(json);
        if (parent) parent[last] = changed.get(id);
      });
    },
  };
}

/** The source a create body's config suggests. */
function inferredSource(body: Json): Source {
  const config = objectAt(body, 'source_config');
  const revision = objectAt(body, 'source_revision_config');
  if (config.repo_url !== undefined || revision.repo_ref !== undefined) return 'gitforge';
  if (config.listener_id !== undefined) return 'external_container';
  if (revision.image_uri !== undefined) return 'internal_container';
  return 'internal_source';
}

function cp(family: Family, id: string, what: string, catches: string[], proxy: Mutant['proxy'], mode: Mutant['mode'] = 'hosted'): Mutant {
  return { kind: 'mutant', id, what, interface: 'control-plane', mode, family, catches, proxy };
}

/**
 * A create of `source` refused as if the control plane did not offer it; except the create
 * property's (whose cases pick their source at random, so it would catch it in some seeds only).
 */
const refusesSource = (source: Source) => () => ({
  request: onCreate((body) => (body.source === source && !ofCreateProperty(body.name) ? validationError(['source'], `${source} is not offered here`) : undefined)),
});

/** Fields of `section` other sources must not set, silently dropped on create instead of refused. */
const ignoresOnCreate = (keep: Source, section: string | undefined, fields: string[]) => () => ({
  request: onCreate((body) => {
    if (body.source !== keep) strip(body, section, fields);
  }),
});

export function controlPlaneDeploymentMutants(): Mutant[] {
  return [
    // Create and read (2.1, 3, 4.1)
    cp('create and sources', 'cp.create-answers-200', 'A create answers 200 instead of 201.', ['CP-CREATE-001'], () => ({
      answer: (r, a) => (a.status === 201 && createdByProperty(r, a) ? { ...a, status: 200 } : a),
    })),
    cp('create and sources', 'cp.create-without-updated-at', 'The create answer has no updated_at.', ['CP-CREATE-002'], () => ({
      answer: (r, a) => (createdByProperty(r, a) ? editJson(a, (json) => delete json.updated_at) : a),
    })),
    cp('create and sources', 'cp.create-without-latest-revision', 'The create answer has a null latest_revision_id (its first revision is made later).', ['CP-CREATE-003'], () => ({
      answer: (r, a) => (createdByProperty(r, a) ? editJson(a, (json) => (json.latest_revision_id = null)) : a),
    })),
    cp('create and sources', 'cp.name-reported-truncated', 'A deployment reports its name cut to 24 characters.', ['CP-CREATE-004'], () =>
      createPropertyAnswers((json) => (json.name = String(json.name).slice(0, 24))),
    ),
    cp('create and sources', 'cp.revision-config-reported-empty', 'A new deployment reports an empty source_revision_config.', ['CP-CREATE-005'], () =>
      createPropertyAnswers((json) => (json.source_revision_config = {})),
    ),
    cp('create and sources', 'cp.create-drops-secrets', 'The secrets of a create body are not stored.', ['CP-CREATE-006'], () => ({
      request: onCreate((body) => {
        if (ofCreateProperty(body.name)) body.secrets = [];
      }),
    })),
    cp('create and sources', 'cp.missing-fields-defaulted', 'A create without name, secrets or source_config is accepted with defaults (a made-up name, none, empty).', ['CP-CREATE-007'], () => ({
      request: onCreate((body) => {
        body.name ??= `unnamed-${randomUUID().slice(0, 8)}`;
        body.secrets ??= [];
        body.source_config ??= {};
      }),
    })),
    cp('create and sources', 'cp.types-coerced', 'Create fields of the wrong type are coerced (String(name), a non-list of secrets as none, unknown enums as defaults) instead of refused.', ['CP-CREATE-008'], () => ({
      request: onCreate((body) => {
        if (body.name !== undefined && typeof body.name !== 'string') body.name = `n${JSON.stringify(body.name).toLowerCase().replace(/[^a-z0-9]/g, '')}-${randomUUID().slice(0, 8)}`;
        if (body.secrets !== undefined) {
          const list = Array.isArray(body.secrets) ? body.secrets : [];
          body.secrets = list.filter(isObject).map((s) => ({ name: String(s.name), value: String(s.value ?? 'sv-coerced') }));
        }
        if (body.source_config !== undefined && !isObject(body.source_config)) body.source_config = {};
        const config = objectAt(body, 'source_config');
        if (config.deployment_type != null && !(DEPLOYMENT_TYPES as readonly unknown[]).includes(config.deployment_type)) config.deployment_type = 'dev';
        if (config.build_on_push != null && typeof config.build_on_push !== 'boolean') config.build_on_push = Boolean(config.build_on_push);
      }),
    })),
    cp('create and sources', 'cp.secrets-patch-202', 'A PATCH changing secrets answers 202 Accepted instead of 200.', ['CP-PATCH-001', 'CP-CONC-001'], () => ({
      answer: (r, a) => (r.method === 'PATCH' && a.status === 200 && Array.isArray(requestJson(r)?.secrets) ? { ...a, status: 202 } : a),
    })),
    cp('create and sources', 'cp.read-without-updated-at', 'GET of one deployment answers it without updated_at.', ['CP-READ-001'], () => ({
      answer: (r, a) => (r.method === 'GET' && deploymentIdOf(r) !== undefined && is2xx(a) ? editJson(a, (json) => delete json.updated_at) : a),
    })),
    cp('listing', 'cp.listing-without-secrets', 'The deployments listing gives each deployment without its secrets.', ['CP-READ-002', 'CP-READ-005'], () => ({
      answer: (r, a) =>
        isListing(r) && is2xx(a)
          ? editJson(a, (json) => {
              for (const item of Array.isArray(json.resources) ? json.resources : []) if (isObject(item)) delete item.secrets;
            })
          : a,
    })),
    cp('listing', 'cp.listing-not-a-list', 'GET /v2/deployments answers an object holding no list.', ['CP-READ-002', 'CP-READ-005'], () => ({
      answer: (r, a) => (isListing(r) && is2xx(a) ? jsonAnswer(200, { resources: 'none' }) : a),
    })),
    cp('errors', 'cp.unknown-id-crashes', 'GET of a deployment id the control plane never issued answers 500 (deleted and foreign ids still 404).', ['CP-READ-003', 'CP-READ-004'], () => {
      const issued = new Set<string>();
      const crash: ProxiedAnswer = { status: 500, headers: { 'content-type': 'text/plain' }, body: Buffer.from('Internal Server Error') };
      return {
        request(r) {
          const id = r.method === 'GET' ? deploymentIdOf(r) : undefined;
          return id !== undefined && !issued.has(id) ? crash : r;
        },
        answer(_r, a) {
          const json = answerJson(a);
          const items = isObject(json) ? (Array.isArray(json.resources) ? json.resources : [json]) : [];
          for (const item of items) if (isObject(item) && typeof item.id === 'string') issued.add(item.id);
          return a;
        },
      };
    }),

    // Delete (4.1)
    cp('deletion', 'cp.delete-answers-200', 'DELETE answers 200 with the deleted deployment\'s id instead of 204 with no body.', ['CP-DEL-001', 'CP-DEL-004'], () => ({
      answer: (r, a) => (r.method === 'DELETE' && a.status === 204 ? jsonAnswer(200, { id: deploymentIdOf(r) }) : a),
    })),
    cp('deletion', 'cp.delete-unknown-204', 'DELETE of a deployment id it does not find (unknown, or another workspace\'s) answers 204 as if deleted, instead of a 4xx.', ['CP-DEL-003', 'CP-TEN-002'], () => ({
      answer: (r, a) => (r.method === 'DELETE' && a.status === 404 ? { status: 204, headers: {}, body: Buffer.alloc(0) } : a),
    })),

    // Sources each mode accepts (2.1)
    cp('create and sources', 'cp.no-gitforge', 'A hosted control plane refuses gitforge deployments.', ['CP-SRC-001', 'CP-TAG-002'], refusesSource('gitforge')),
    cp('create and sources', 'cp.hosted-accepts-external', 'A hosted control plane accepts external_container creates.', ['CP-SRC-002'], () => ({
      request: onCreate((body) => (body.source === 'external_container' ? fakeCreated(body) : undefined)),
    })),
    cp('create and sources', 'cp.no-external-container', 'A self-hosted control plane refuses external_container deployments.', ['CP-SRC-003', 'CP-RES-004'], refusesSource('external_container'), 'self-hosted'),
    cp('create and sources', 'cp.self-hosted-accepts-gitforge', 'A self-hosted control plane accepts gitforge creates.', ['CP-SRC-004'], () => ({
      request: onCreate((body) => (body.source === 'gitforge' ? fakeCreated(body) : undefined)),
    }), 'self-hosted'),
    cp('create and sources', 'cp.no-internal-container', 'The control plane refuses internal_container deployments.', ['CP-SRC-005'], refusesSource('internal_container')),
    cp('create and sources', 'cp.no-internal-source', 'The control plane refuses internal_source deployments.', ['CP-SRC-006'], refusesSource('internal_source')),
    cp('create and sources', 'cp.unknown-source-inferred', 'A create whose source is not one of the four is taken as the source its config suggests.', ['CP-SRC-007'], () => ({
      request: onCreate((body) => {
        if (body.source !== undefined && !(SOURCES as readonly unknown[]).includes(body.source)) body.source = inferredSource(body);
      }),
    })),

    // Fields that apply to one source only (2.1-2.3), dropped instead of refused
    cp('create and sources', 'cp.gitforge-fields-ignored', 'gitforge-only source_config fields on another source are dropped, not refused.', ['CP-APPL-001'],
      ignoresOnCreate('gitforge', 'source_config', ['integration_id', 'repo_url', 'deployment_type', 'build_on_push'])),
    cp('create and sources', 'cp.listener-fields-ignored', 'listener_id and listener_config on a source other than external_container are dropped, not refused.', ['CP-APPL-002'],
      ignoresOnCreate('external_container', 'source_config', ['listener_id', 'listener_config'])),
    cp('create and sources', 'cp.custom-url-ignored', 'custom_url on a source other than external_container is dropped, not refused.', ['CP-APPL-003'],
      ignoresOnCreate('external_container', 'source_config', ['custom_url'])),
    cp('create and sources', 'cp.secret-references-ignored', 'secret_references on a source other than external_container are dropped, not refused.', ['CP-APPL-004'],
      ignoresOnCreate('external_container', undefined, ['secret_references'])),
    cp('create and sources', 'cp.repo-ref-ignored', 'repo_ref on a source other than gitforge is dropped, not refused.', ['CP-APPL-005'],
      ignoresOnCreate('gitforge', 'source_revision_config', ['repo_ref'])),
    cp('create and sources', 'cp.tarball-path-ignored', 'source_tarball_path on a source other than internal_source is dropped, not refused.', ['CP-APPL-006'],
      ignoresOnCreate('internal_source', 'source_revision_config', ['source_tarball_path'])),
    cp('create and sources', 'cp.patch-inapplicable-ignored', 'A PATCH setting a field that does not apply to the deployment\'s source (other than resource_spec) has it dropped, not refused.', ['CP-APPL-007'], () => {
      const sources = new Sources();
      return onPatch(sources, (body, source) => {
        if (source !== 'gitforge') {
          strip(body, 'source_config', ['build_on_push']);
          strip(body, 'source_revision_config', ['repo_ref']);
        }
        if (source !== 'external_container') {
          strip(body, 'source_config', ['custom_url']);
          strip(body, undefined, ['secret_references']);
        }
        if (source !== 'internal_source') strip(body, 'source_revision_config', ['source_tarball_path']);
      });
    }),
    cp('create and sources', 'cp.external-graph-path-ignored', 'An external_container create\'s graph_config_path is dropped, not refused.', ['CP-GRAPH-003'], () => ({
      request: onCreate((body) => {
        if (body.source === 'external_container') strip(body, 'source_revision_config', ['graph_config_path']);
      }),
    }), 'self-hosted'),
    cp('create and sources', 'cp.container-graph-path-ignored', 'An internal_container create\'s graph_config_path is dropped, not refused.', ['CP-GRAPH-004'], () => ({
      request: onCreate((body) => {
        if (body.source === 'internal_container') strip(body, 'source_revision_config', ['graph_config_path']);
      }),
    })),
    cp('create and sources', 'cp.tags-refused', 'A gitforge create whose repo_ref is a tag is refused even with build_on_push false.', ['CP-TAG-002'], () => ({
      request: onCreate((body) =>
        body.source === 'gitforge' && String(objectAt(body, 'source_revision_config').repo_ref).startsWith('refs/tags/')
          ? validationError(['source_revision_config', 'repo_ref'], 'tags cannot be deployed')
          : undefined,
      ),
    })),

    // Source tarballs (2.3, 4.1)
    cp('create and sources', 'cp.no-upload-url', 'POST .../upload-url answers 404: the control plane has no upload endpoint.', ['CP-UPL-001', 'CP-UPL-003'], () => ({
      request: (r) => (r.method === 'POST' && pathOf(r).endsWith('/upload-url') ? jsonAnswer(404, { detail: 'Not Found' }) : r),
    })),
    cp('create and sources', 'cp.tarball-patch-202', 'A PATCH naming a source_tarball_path answers 202 Accepted instead of 200.', ['CP-UPL-002'], () => ({
      answer: (r, a) => (r.method === 'PATCH' && a.status === 200 && typeof objectAt(requestJson(r) ?? {}, 'source_revision_config').source_tarball_path === 'string' ? { ...a, status: 202 } : a),
    })),

    // resource_spec (2.4, 8)
    cp('resource_spec', 'cp.resource-spec-ignored', 'A resource_spec on a create of a source other than external_container is dropped, not refused.', ['CP-RES-001'],
      ignoresOnCreate('external_container', 'source_config', ['resource_spec'])),
    cp('resource_spec', 'cp.cpu-clamped', 'A create\'s cpu, queue_cpu and cache_cpu outside 0.1 to 8 are clamped into the bounds, not refused.', ['CP-RES-002'], () => ({
      request: onCreate((body) => clamp(objectAt(body, 'source_config').resource_spec, BOUNDED_CPU, 0.1, 8)),
    }), 'self-hosted'),
    cp('resource_spec', 'cp.cpu-limit-clamped', 'A create\'s CPU limits outside 0.1 to 16 are clamped into the bounds, not refused.', ['CP-RES-003'], () => ({
      request: onCreate((body) => clamp(objectAt(body, 'source_config').resource_spec, BOUNDED_CPU_LIMITS, 0.1, 16)),
    }), 'self-hosted'),
    cp('resource_spec', 'cp.cpu-upper-bound-exclusive', 'A CPU value equal to its upper bound (8, or 16 for limits) is refused: the bounds are checked with < instead of <=.', ['CP-RES-004'], () => ({
      request: onCreate((body) => {
        const spec = objectAt(objectAt(body, 'source_config'), 'resource_spec');
        const onBound = [...BOUNDED_CPU.filter((f) => spec[f] === 8), ...BOUNDED_CPU_LIMITS.filter((f) => spec[f] === 16)];
        return onBound.length > 0 ? validationError(['source_config', 'resource_spec', onBound[0]!], 'out of bounds') : undefined;
      }),
    }), 'self-hosted'),
    cp('resource_spec', 'cp.patch-cpu-clamped', 'A PATCH\'s out-of-bounds CPU values are clamped into the bounds, not refused.', ['CP-RES-006'], () => ({
      request: (r) =>
        r.method === 'PATCH' && requestJson(r)
          ? editRequestJson(r, (body) => {
              const spec = objectAt(body, 'source_config').resource_spec;
              clamp(spec, BOUNDED_CPU, 0.1, 8);
              clamp(spec, BOUNDED_CPU_LIMITS, 0.1, 16);
            })
          : r,
    }), 'self-hosted'),
    cp('resource_spec', 'cp.resource-spec-merged', 'A PATCH\'s resource_spec is merged into the existing one instead of overwriting it.', ['CP-RES-007'], () => {
      const specs = new Map<string, Json>();
      return {
        request(r) {
          const id = deploymentIdOf(r);
          const body = r.method === 'PATCH' ? requestJson(r) : undefined;
          const spec = body ? objectAt(body, 'source_config').resource_spec : undefined;
          if (id === undefined || !isObject(spec) || !specs.has(id)) return r;
          return editRequestJson(r, (json) => ((json.source_config as Json).resource_spec = { ...specs.get(id), ...spec }));
        },
        answer(_r, a) {
          const json = answerJson(a);
          const spec = isObject(json) ? objectAt(json, 'source_config').resource_spec : undefined;
          if (isObject(json) && typeof json.id === 'string' && isObject(spec)) specs.set(json.id, spec);
          return a;
        },
      };
    }, 'self-hosted'),
    cp('resource_spec', 'cp.patch-resource-spec-ignored', 'A PATCH setting resource_spec on a deployment whose source is not external_container has it dropped, not refused.', ['CP-RES-008'], () =>
      onPatch(new Sources(), (body, source) => {
        if (source !== 'external_container') strip(body, 'source_config', ['resource_spec']);
      }),
    ),

    // Immutable fields (2.1, 2.2): changed by a PATCH
    cp('immutability', 'cp.source-changes', 'A PATCH can change a deployment\'s source.', ['CP-IMM-002'], () => immutableChanges(['source'])),
    cp('immutability', 'cp.integration-id-changes', 'A PATCH can change source_config.integration_id.', ['CP-IMM-003'], () => immutableChanges(['source_config', 'integration_id'])),
    cp('immutability', 'cp.repo-url-changes', 'A PATCH can change source_config.repo_url.', ['CP-IMM-004'], () => immutableChanges(['source_config', 'repo_url'])),
    cp('immutability', 'cp.deployment-type-changes', 'A PATCH can change source_config.deployment_type.', ['CP-IMM-005'], () => immutableChanges(['source_config', 'deployment_type'])),
    cp('immutability', 'cp.listener-id-changes', 'A PATCH can change source_config.listener_id.', ['CP-IMM-006'], () => immutableChanges(['source_config', 'listener_id']), 'self-hosted'),
    cp('immutability', 'cp.cluster-namespace-changes', 'A PATCH can change source_config.listener_config.cluster_namespace.', ['CP-IMM-007'], () => immutableChanges(['source_config', 'listener_config', 'cluster_namespace']), 'self-hosted'),

    // Other endpoint groups and versioned paths (9)
    cp('listing', 'cp.listing-moved-to-v1', 'GET /v2/deployments (the listing) answers 308, redirecting to /v1/deployments.', ['CP-VER-001', 'CP-READ-002', 'CP-READ-005'], () => ({
      // After authentication: a request the target refuses stays refused.
      answer: (r, a) => (isListing(r) && is2xx(a) ? { status: 308, headers: { location: r.path.replace('/v2/', '/v1/') }, body: Buffer.alloc(0) } : a),
    })),
    cp('errors', 'cp.no-integrations', 'GET /v1/integrations/gitforge/install answers 404.', ['CP-VER-002', 'CP-VER-004'], () => ({
      request: (r) => (r.method === 'GET' && pathOf(r) === '/v1/integrations/gitforge/install' ? jsonAnswer(404, { detail: 'Not Found' }) : r),
    })),
    cp('errors', 'cp.no-listeners', 'GET /v2/listeners answers 404.', ['CP-VER-003', 'CP-VER-005'], () => ({
      request: (r) => (r.method === 'GET' && pathOf(r) === '/v2/listeners' ? jsonAnswer(404, { detail: 'Not Found' }) : r),
    }), 'self-hosted'),

    // Revisions whose reported status lies or is missing
    cp('revisions', 'cp.failed-build-reported-deployed', 'A revision whose build failed is reported DEPLOYED.', ['CP-LIFE-003'], () => ({
      answer: (r, a) =>
        r.method === 'GET' && /\/revisions\/[^/?]+$/.test(pathOf(r)) && is2xx(a) ? editJson(a, (json) => String(json.status).includes('FAILED') && (json.status = 'DEPLOYED')) : a,
    })),
    // Its status is missing, so outside the known ones (CP-REVL-009): the waits that poll it stop, blocked by that rule, rather than fail.
    cp('revisions', 'cp.revision-without-status', 'GET of one revision answers it without its status, so a client polling it never sees it finish.', ['CP-REVL-004', 'CP-REVL-009'], () => ({
      answer: (r, a) => (r.method === 'GET' && /^\/v2\/deployments\/[^/]+\/revisions\/[^/?]+$/.test(pathOf(r)) && is2xx(a) ? editJson(a, (json) => delete json.status) : a),
    })),
  ];
}
