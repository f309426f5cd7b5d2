// What the control-plane mutant proxies read from the traffic they forward: which deployment (and
// revision) a path names, a request's JSON body, which revision triggers (section 3) a PATCH
// carries, and a record of each deployment's latest revision and SourceRevisionConfig as the
// target last answered them.
import { isObject } from '../../../schemas/is-object.ts';
import { REVISION_MEMBERS, TRIGGERS } from '../../../generators/control-plane/source-rules.ts';
import type { ProxiedAnswer, ProxiedRequest } from '../../proxy/proxy.ts';

export type Json = Record<string, unknown>;

export interface Route {
  /** GET/POST /v2/deployments itself. */
  collection: boolean;
  deploymentId?: string;
  /** .../revisions (the listing) or .../revisions/{revisionId}. */
  revisions: boolean;
  revisionId?: string;
}

/** The deployment route a request path names (query ignored). */
export function routeOf(path: string): Route {
  const [bare = ''] = path.split('?');
  const match = /^\/v2\/deployments(?:\/([^/]+)(\/revisions(?:\/([^/]+))?)?)?\/?$/.exec(bare);
  if (!match) return { collection: false, revisions: false };
  return {
    collection: match[1] === undefined,
    ...(match[1] !== undefined ? { deploymentId: match[1] } : {}),
    revisions: match[2] !== undefined,
    ...(match[3] !== undefined ? { revisionId: match[3] } : {}),
  };
}

/** The request's body as a JSON object, or undefined (empty, not JSON, not an object). */
export function requestJson(request: ProxiedRequest): Json | undefined {
  try {
    const json: unknown = JSON.parse(request.body.toString('utf8'));
    return isObject(json) ? json : undefined;
  } catch {
    return undefined;
  }
}

/** The answer's body as a JSON object, or undefined. */
export function answerJson(answer: ProxiedAnswer): Json | undefined {
  try {
    const json: unknown = JSON.parse(answer.body.toString('utf8'));
    return isObject(json) ? json : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON answer of the proxy's own. */
export function jsonReply(status: number, body: unknown): ProxiedAnswer {
  return { status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) };
}

/** A JSON answer with `body` in place of the target's, its other headers kept. */
export function jsonAnswer(answer: ProxiedAnswer, status: number, body: unknown): ProxiedAnswer {
  return { ...jsonReply(status, body), headers: { ...answer.headers, 'content-type': 'application/json' } };
}

/** The revision triggers a PATCH body carries: the section 3 rows (members of TRIGGERS) it sets non-null. */
export function triggersOf(body: Json): (keyof typeof TRIGGERS)[] {
  const revision = isObject(body.source_revision_config) ? body.source_revision_config : {};
  return [
    ...REVISION_MEMBERS.filter((m) => revision[m] != null),
    ...(body.secrets != null ? (['secrets'] as const) : []),
    ...(isObject(body.source_config) && body.source_config.resource_spec != null ? (['resource_spec'] as const) : []),
  ];
}

/**
 * The no-revision rule of section 4.1 a valid PATCH without triggers exercises: empty
 * (CP-REV-010), source_config fields only (CP-REV-009), or null members (CP-REV-011); undefined for
 * any other body (a trigger, an immutable field, a value of the wrong type).
 */
export function noTriggerKind(body: Json): 'empty' | 'source_config' | 'null members' | undefined {
  const plain = Object.entries(body).every(([key, value]) => {
    if (value === null) return true;
    if (key === 'source_revision_config') return isObject(value) && Object.values(value).every((v) => v === null);
    return key === 'source_config' && isObject(value);
  });
  if (!plain || triggersOf(body).length > 0) return undefined;
  if (Object.keys(body).length === 0) return 'empty';
  return isObject(body.source_config) && Object.keys(body.source_config).length > 0 ? 'source_config' : 'null members';
}

/** Each deployment's latest_revision_id and source_revision_config, from the target's answers. */
export class DeploymentRecord {
  readonly latest = new Map<string, string>();
  readonly revisionConfig = new Map<string, Json>();

  /** Notes what a deployment answer (create, GET, PATCH) says. */
  note(answer: ProxiedAnswer): void {
    const json = answerJson(answer);
    if (answer.status >= 300 || !json || typeof json.id !== 'string') return;
    if (typeof json.latest_revision_id === 'string') this.latest.set(json.id, json.latest_revision_id);
    if (isObject(json.source_revision_config)) this.revisionConfig.set(json.id, json.source_revision_config);
  }
}
