// What the control plane's deployment proxy mutants are made of (control-plane-deployments.ts,
// control-plane-fields.ts): which request a rule bends (a create, a PATCH, the create property's
// deployments), the refusals and fake answers it sends, and the edits it makes. Rules that would
// get in other tests' way are scoped to the resources of the one property they bend (the create
// property's deployments are named `<run>-create-...`).
import { randomUUID } from 'node:crypto';
import type { Source } from '../../../schemas/index.ts';
import { isObject } from '../../../schemas/is-object.ts';
import { editJson, editRequestJson, type ProxiedAnswer, type ProxiedRequest, type ProxyRules } from '../../proxy/proxy.ts';

export type Json = Record<string, unknown>;

export const DEPLOYMENTS = '/v2/deployments';
export const ONE_DEPLOYMENT = /^\/v2\/deployments\/([^/?]+)(?:\?.*)?$/;

export const pathOf = (r: ProxiedRequest) => r.path.split('?')[0]!;
export const isCreate = (r: ProxiedRequest) => r.method === 'POST' && pathOf(r) === DEPLOYMENTS;
export const isListing = (r: ProxiedRequest) => r.method === 'GET' && pathOf(r) === DEPLOYMENTS;
export const deploymentIdOf = (r: ProxiedRequest) => ONE_DEPLOYMENT.exec(r.path)?.[1];
export const is2xx = (a: ProxiedAnswer) => a.status >= 200 && a.status < 300;
export const objectAt = (json: Json, key: string): Json => (isObject(json[key]) ? (json[key] as Json) : {});

export function requestJson(r: ProxiedRequest): Json | undefined {
  if (r.body.length === 0) return undefined;
  try {
    const json: unknown = JSON.parse(r.body.toString('utf8'));
    return isObject(json) ? json : undefined;
  } catch {
    return undefined;
  }
}

export function answerJson(a: ProxiedAnswer): unknown {
  if (!/json/.test(a.headers['content-type'] ?? '') || a.body.length === 0) return undefined;
  return JSON.parse(a.body.toString('utf8'));
}

export function jsonAnswer(status: number, body: unknown): ProxiedAnswer {
  return { status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) };
}

/** A 422 in the shape of the spec's HTTPValidationError. */
export const validationError = (loc: string[], msg: string) => jsonAnswer(422, { detail: [{ loc: ['body', ...loc], msg, type: 'value_error' }] });

/** A create body the proxy changes (`edit` may return a refusal instead). */
export function onCreate(edit: (body: Json) => ProxiedAnswer | void): ProxyRules['request'] {
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
export class Sources {
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
export function onPatch(sources: Sources, edit: (body: Json, source: Source) => void): ProxyRules {
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
export function createPropertyAnswers(edit: (json: Json) => void): ProxyRules {
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
export const ofCreateProperty = (name: unknown) => String(name).includes('-create-');

/** The answer to a create of one of the create property's deployments. */
export const createdByProperty = (r: ProxiedRequest, a: ProxiedAnswer) => {
  const json = isCreate(r) ? answerJson(a) : undefined;
  return isObject(json) && ofCreateProperty(json.name);
};

/** Deletes `fields` of a create body's `section` (the top level when undefined). */
export function strip(json: Json, section: string | undefined, fields: string[]): void {
  const at = section === undefined ? json : json[section];
  if (isObject(at)) for (const field of fields) delete at[field];
}

/** A create answered 201 as if accepted: the body with the fields a Deployment adds. */
export function fakeCreated(body: Json): ProxiedAnswer {
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

export const BOUNDED_CPU = ['cpu', 'queue_cpu', 'cache_cpu'];
export const BOUNDED_CPU_LIMITS = ['cpu_limit', 'queue_cpu_limit', 'cache_cpu_limit'];

/** Clamps `fields` of a resource_spec into [low, high] instead of refusing values outside. */
export function clamp(spec: unknown, fields: string[], low: number, high: number): void {
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
export function immutableChanges(path: string[]): ProxyRules {
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
export function inferredSource(body: Json): Source {
  const config = objectAt(body, 'source_config');
  const revision = objectAt(body, 'source_revision_config');
  if (config.repo_url !== undefined || revision.repo_ref !== undefined) return 'gitforge';
  if (config.listener_id !== undefined) return 'external_container';
  if (revision.image_uri !== undefined) return 'internal_container';
  return 'internal_source';
}

/**
 * A create of `source` refused as if the control plane did not offer it; except the create
 * property's (whose cases pick their source at random, so it would catch it in some seeds only).
 */
export const refusesSource = (source: Source) => () => ({
  request: onCreate((body) =>
    body.source === source && !ofCreateProperty(body.name) ? validationError(['source'], `${source} is not offered here`) : undefined,
  ),
});

/** Fields of `section` other sources must not set, silently dropped on create instead of refused. */
export const ignoresOnCreate = (keep: Source, section: string | undefined, fields: string[]) => () => ({
  request: onCreate((body) => {
    if (body.source !== keep) strip(body, section, fields);
  }),
});
