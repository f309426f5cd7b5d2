// What the control plane's revision proxy mutants (control-plane-revisions.ts) are made of: rules
// that hide, add or pin revisions, rewrite refusal bodies, or let one workspace's key act in another.
import { randomUUID } from 'node:crypto';
import { isObject } from '../../../schemas/is-object.ts';
import { TRIGGERS } from '../../../generators/control-plane/source-rules.ts';
import { editJson, editRequestJson, type ProxiedAnswer, type ProxiedRequest, type ProxyRules } from '../../proxy/proxy.ts';
import type { TargetKeys } from '../subjects.ts';
import { answerJson, DeploymentRecord, type Json, jsonAnswer, jsonReply, noTriggerKind, requestJson, routeOf, triggersOf } from './deployment-traffic.ts';

export type Trigger = keyof typeof TRIGGERS;

export const isPatch = (request: ProxiedRequest) =>
  request.method === 'PATCH' && routeOf(request.path).deploymentId !== undefined && !routeOf(request.path).revisions;
export const isDeploymentAnswer = (request: ProxiedRequest) => {
  const route = routeOf(request.path);
  return !route.revisions && (route.deploymentId !== undefined || (route.collection && request.method === 'POST'));
};

export const isListing = (request: ProxiedRequest) => request.method === 'GET' && routeOf(request.path).revisions && !routeOf(request.path).revisionId;

/** Applies `edit` to each deployment a deployment answer carries (one, or a listing's resources). */
export function eachDeployment(request: ProxiedRequest, answer: ProxiedAnswer, edit: (deployment: Json) => void): ProxiedAnswer {
  const route = routeOf(request.path);
  if (answer.status >= 300 || route.revisions || (!route.collection && route.deploymentId === undefined)) return answer;
  return editJson(answer, (json) => {
    if (!route.collection) {
      if (typeof json.id === 'string') edit(json);
    } else if (request.method === 'GET') {
      for (const d of Array.isArray(json.resources) ? json.resources : []) if (isObject(d)) edit(d);
    } else if (typeof json.id === 'string') edit(json);
  });
}

/**
 * A PATCH whose only trigger is `trigger` creates no revision, as if the implementation's list of
 * trigger fields missed it: the proxy hides the revision the reference made (from the PATCH's
 * answer, later reads and the revisions listing), so the deployment keeps its latest revision.
 */
export function soleTriggerMakesNoRevision(trigger: Trigger): () => ProxyRules {
  return () => {
    const record = new DeploymentRecord();
    const hidden = new Set<string>();
    const visible = (d: Json) => {
      if (typeof d.id === 'string' && hidden.has(d.latest_revision_id as string)) d.latest_revision_id = record.latest.get(d.id) ?? d.latest_revision_id;
    };
    return {
      request(request) {
        const revisionId = routeOf(request.path).revisionId;
        if (request.method === 'GET' && revisionId && hidden.has(revisionId)) {
          return jsonReply(404, { detail: `Revision ID ${revisionId} not found.` });
        }
        return request;
      },
      answer(request, answer) {
        if (isListing(request)) {
          return editJson(answer, (json) => {
            if (Array.isArray(json.resources)) json.resources = json.resources.filter((r) => !(isObject(r) && hidden.has(r.id as string)));
          });
        }
        const body = isPatch(request) ? requestJson(request) : undefined;
        const sole = body !== undefined && triggersOf(body).length === 1 && triggersOf(body)[0] === trigger;
        const json = answerJson(answer);
        if (sole && answer.status === 200 && typeof json?.latest_revision_id === 'string') hidden.add(json.latest_revision_id);
        const edited = eachDeployment(request, answer, visible);
        if (isDeploymentAnswer(request)) record.note(edited);
        return edited;
      },
    };
  };
}

/**
 * The requests `makesTwo` picks create two revisions: the proxy lists a second one beside the
 * revision the reference made (a twin with its own id, one millisecond older) and answers GETs of it.
 */
export function twoRevisionsFor(makesTwo: (request: ProxiedRequest) => boolean): () => ProxyRules {
  return () => {
    /** Revision id the request made → its twin's id. */
    const twins = new Map<string, string>();
    const listedTwins = new Map<string, Json>();
    return {
      request(request) {
        const revisionId = routeOf(request.path).revisionId;
        const twin = revisionId ? listedTwins.get(revisionId) : undefined;
        if (request.method === 'GET' && twin) return jsonReply(200, twin);
        return request;
      },
      answer(request, answer) {
        const latest = answerJson(answer)?.latest_revision_id;
        if (answer.status < 300 && typeof latest === 'string' && makesTwo(request)) twins.set(latest, randomUUID());
        if (!isListing(request)) return answer;
        return editJson(answer, (json) => {
          if (!Array.isArray(json.resources)) return;
          json.resources = json.resources.flatMap((r: unknown) => {
            const twinId = isObject(r) ? twins.get(r.id as string) : undefined;
            if (!isObject(r) || !twinId) return [r];
            const created = typeof r.created_at === 'string' ? new Date(Date.parse(r.created_at) - 1).toISOString() : r.created_at;
            const twin = { ...r, id: twinId, created_at: created };
            listedTwins.set(twinId, twin);
            return [r, twin];
          });
        });
      },
    };
  };
}

/**
 * A PATCH of the given no-trigger kind creates a revision, as if the implementation treated it as a
 * change: the proxy adds the deployment's current value of one SourceRevisionConfig member to it,
 * so the reference makes a revision and nothing else changes.
 */
export function noTriggerMakesRevision(kind: NonNullable<ReturnType<typeof noTriggerKind>>): () => ProxyRules {
  return () => {
    const record = new DeploymentRecord();
    return {
      request(request) {
        const id = routeOf(request.path).deploymentId;
        const body = isPatch(request) ? requestJson(request) : undefined;
        const current = id ? record.revisionConfig.get(id) : undefined;
        if (!body || !current || noTriggerKind(body) !== kind) return request;
        const member = (['image_uri', 'repo_ref', 'graph_config_path'] as const).find((m) => typeof current[m] === 'string');
        if (!member) return request;
        return editRequestJson(request, (json) => {
          json.source_revision_config = { ...(isObject(json.source_revision_config) ? json.source_revision_config : {}), [member]: current[member] };
        });
      },
      answer(request, answer) {
        if (isDeploymentAnswer(request)) record.note(answer);
        return answer;
      },
    };
  };
}

/**
 * Every deployment answer (create, read, PATCH, listing) shows `field` as the deployment's first
 * answer had it, once `kept` accepts that value; everything else of the answer is right.
 */
export function keepsFirst(field: string, kept: (value: unknown) => boolean = () => true): ProxyRules {
  const first = new Map<string, unknown>();
  return {
    answer(request, answer) {
      return eachDeployment(request, answer, (d) => {
        const id = d.id as string;
        if (!first.has(id) && kept(d[field])) first.set(id, d[field]);
        if (first.has(id)) d[field] = first.get(id);
      });
    },
  };
}

/** latest_revision_id stays the create's revision: PATCHes that create revisions never move it. */
export const latestNeverMoves = (): ProxyRules => keepsFirst('latest_revision_id', (v) => typeof v === 'string');

/** The deployment's source_revision_config stays its first revision's, whatever revisions came after; the revisions themselves are right. */
export const keepsFirstRevisionConfig = (): ProxyRules => keepsFirst('source_revision_config');

/** Edits each revision of a revisions listing; `index` 0 is the first listed. */
export function eachListedRevision(edit: (revision: Json, index: number) => void): ProxyRules {
  return {
    answer(request, answer) {
      if (!isListing(request) || answer.status !== 200) return answer;
      return editJson(answer, (json) => {
        if (Array.isArray(json.resources)) json.resources.forEach((r: unknown, i: number) => isObject(r) && edit(r, i));
      });
    },
  };
}

/** Answers GET of a deployment's revisions; `edit` may replace the whole body. */
export function listingBody(edit: (json: Json) => unknown): ProxyRules {
  return {
    answer(request, answer) {
      if (!isListing(request) || answer.status !== 200) return answer;
      const json = answerJson(answer);
      return json ? jsonAnswer(answer, 200, edit(json)) : answer;
    },
  };
}

/** GET of a revision id the deployment does not have answers 200 with status UNKNOWN. */
export function unknownRevisionAnswered(): ProxyRules {
  return {
    answer(request, answer) {
      const { revisionId } = routeOf(request.path);
      const detail = answerJson(answer)?.detail;
      if (request.method !== 'GET' || !revisionId || answer.status !== 404 || typeof detail !== 'string' || !detail.startsWith('Revision ID')) return answer;
      return jsonAnswer(answer, 200, { id: revisionId, status: 'UNKNOWN' });
    },
  };
}

/** The deployment's active_revision_id as `pick` makes it from the one the reference reports. */
export function activeRevision(pick: (id: string, active: unknown) => unknown): ProxyRules {
  return {
    answer(request, answer) {
      return eachDeployment(request, answer, (d) => {
        d.active_revision_id = pick(d.id as string, d.active_revision_id);
      });
    },
  };
}

export function activePinnedToFirst(): ProxyRules {
  const first = new Map<string, unknown>();
  return activeRevision((id, active) => {
    if (!first.has(id) && typeof active === 'string') first.set(id, active);
    return first.get(id) ?? active;
  });
}

/**
 * After concurrent PATCHes latest_revision_id names the revision of whichever wrote the pointer
 * last, not the newest: PATCH answers stay as they are, and while the newest revision is one of a
 * concurrent group, reads of the deployment report another of the group.
 */
/** How long the proxy holds each PATCH before passing it on. */
export const WRITE_MS = 25;

export function concurrentLatestLastWriter(): ProxyRules {
  const inFlight = new Map<string, Set<ProxiedRequest>>();
  const overlapping = new Set<ProxiedRequest>();
  /** Per deployment, the revisions of its PATCHes that ran while another did. */
  const concurrent = new Map<string, string[]>();
  return {
    async request(request) {
      const id = routeOf(request.path).deploymentId;
      if (!isPatch(request) || !id) return request;
      const running = inFlight.get(id) ?? new Set();
      if (running.size > 0) for (const r of [...running, request]) overlapping.add(r);
      inFlight.set(id, running.add(request));
      // A slow writer: PATCHes sent at once are all in flight together, as on a loaded server.
      await new Promise((resolve) => setTimeout(resolve, WRITE_MS));
      return request;
    },
    answer(request, answer) {
      const id = routeOf(request.path).deploymentId;
      if (isPatch(request) && id) {
        inFlight.get(id)?.delete(request);
        const latest = answerJson(answer)?.latest_revision_id;
        if (overlapping.delete(request) && answer.status === 200 && typeof latest === 'string') concurrent.set(id, [...(concurrent.get(id) ?? []), latest]);
        return answer;
      }
      if (request.method !== 'GET') return answer;
      return eachDeployment(request, answer, (d) => {
        const group = concurrent.get(d.id as string) ?? [];
        if (group.includes(d.latest_revision_id as string)) d.latest_revision_id = group.find((r) => r !== d.latest_revision_id) ?? d.latest_revision_id;
      });
    },
  };
}

/** Rewrites the answer of each PATCH with `status` to `body(detail)`. */
export function patchRefusalBody(status: number, body: (json: Json) => unknown): ProxyRules {
  return {
    answer(request, answer) {
      const json = answerJson(answer);
      if (!isPatch(request) || answer.status !== status || !json) return answer;
      return jsonAnswer(answer, status, body(json));
    },
  };
}

/** A PATCH whose body is empty or not JSON is read as {}. */
export function unreadablePatchAsEmpty(): ProxyRules {
  return {
    request(request) {
      if (!isPatch(request) || requestJson(request) !== undefined) return request;
      return { ...request, headers: { ...request.headers, 'content-type': 'application/json' }, body: Buffer.from('{}') };
    },
  };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A PATCH of a deployment_id that is not a uuid fails in the database: 500. */
export function malformedIdServerError(): ProxyRules {
  return {
    request(request) {
      const id = routeOf(request.path).deploymentId;
      if (!isPatch(request) || !id || UUID.test(id)) return request;
      return jsonReply(500, { detail: 'Internal Server Error' });
    },
  };
}

/**
 * Requests made with the other workspace's key, of the given kind, act in the first workspace
 * (the key is checked, the deployment's workspace is not): the proxy sends them with the first
 * workspace's key and X-Tenant-Id.
 */
export function otherKeyActsAsFirst(applies: (request: ProxiedRequest) => boolean): (keys: TargetKeys) => ProxyRules {
  return (keys) => {
    let tenant: string | undefined;
    return {
      request(request) {
        const key = request.headers['x-api-key'];
        if (key === keys.apiKey && request.headers['x-tenant-id']) tenant = request.headers['x-tenant-id'];
        if (key !== keys.otherApiKey || !applies(request)) return request;
        return { ...request, headers: { ...request.headers, 'x-api-key': keys.apiKey, ...(tenant ? { 'x-tenant-id': tenant } : {}) } };
      },
    };
  };
}

/** The workspace a key acts in by default, which the proxy reports instead of X-Tenant-Id's. */
export const DEFAULT_WORKSPACE = '00000000-0000-4000-8000-000000000001';
