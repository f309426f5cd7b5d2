// Proxy mutants of the control plane (revisions and their triggers, revision listing, lifecycle,
// concurrency, sequences, error bodies, tenants): rules the fault switches do not break, each
// broken by a rewriting proxy in front of the reference.
import { randomUUID } from 'node:crypto';
import { isObject } from '../../../schemas/is-object.ts';
import { REVISION_MEMBERS, TRIGGERS } from '../../../generators/control-plane/source-rules.ts';
import { editJson, editRequestJson, type ProxiedAnswer, type ProxiedRequest, type ProxyRules } from '../../proxy/proxy.ts';
import type { Family, Mutant, TargetKeys } from '../subjects.ts';
import { answerJson, DeploymentRecord, jsonAnswer, jsonReply, noTriggerKind, requestJson, routeOf, triggersOf, type Json } from './deployment-traffic.ts';

type Trigger = keyof typeof TRIGGERS;

const isPatch = (request: ProxiedRequest) => request.method === 'PATCH' && routeOf(request.path).deploymentId !== undefined && !routeOf(request.path).revisions;
const isDeploymentAnswer = (request: ProxiedRequest) => {
  const route = routeOf(request.path);
  return !route.revisions && (route.deploymentId !== undefined || (route.collection && request.method === 'POST'));
};

const isListing = (request: ProxiedRequest) => request.method === 'GET' && routeOf(request.path).revisions && !routeOf(request.path).revisionId;

/** Applies `edit` to each deployment a deployment answer carries (one, or a listing's resources). */
function eachDeployment(request: ProxiedRequest, answer: ProxiedAnswer, edit: (deployment: Json) => void): ProxiedAnswer {
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
function soleTriggerMakesNoRevision(trigger: Trigger): () => ProxyRules {
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
function twoRevisionsFor(makesTwo: (request: ProxiedRequest) => boolean): () => ProxyRules {
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
function noTriggerMakesRevision(kind: NonNullable<ReturnType<typeof noTriggerKind>>): () => ProxyRules {
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
function keepsFirst(field: string, kept: (value: unknown) => boolean = () => true): ProxyRules {
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
const latestNeverMoves = (): ProxyRules => keepsFirst('latest_revision_id', (v) => typeof v === 'string');

/** The deployment's source_revision_config stays its first revision's, whatever revisions came after; the revisions themselves are right. */
const keepsFirstRevisionConfig = (): ProxyRules => keepsFirst('source_revision_config');

/** Edits each revision of a revisions listing; `index` 0 is the first listed. */
function eachListedRevision(edit: (revision: Json, index: number) => void): ProxyRules {
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
function listingBody(edit: (json: Json) => unknown): ProxyRules {
  return {
    answer(request, answer) {
      if (!isListing(request) || answer.status !== 200) return answer;
      const json = answerJson(answer);
      return json ? jsonAnswer(answer, 200, edit(json)) : answer;
    },
  };
}

/** GET of a revision id the deployment does not have answers 200 with status UNKNOWN. */
function unknownRevisionAnswered(): ProxyRules {
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
function activeRevision(pick: (id: string, active: unknown) => unknown): ProxyRules {
  return {
    answer(request, answer) {
      return eachDeployment(request, answer, (d) => {
        d.active_revision_id = pick(d.id as string, d.active_revision_id);
      });
    },
  };
}

function activePinnedToFirst(): ProxyRules {
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
const WRITE_MS = 25;

function concurrentLatestLastWriter(): ProxyRules {
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
function patchRefusalBody(status: number, body: (json: Json) => unknown): ProxyRules {
  return {
    answer(request, answer) {
      const json = answerJson(answer);
      if (!isPatch(request) || answer.status !== status || !json) return answer;
      return jsonAnswer(answer, status, body(json));
    },
  };
}

/** A PATCH whose body is empty or not JSON is read as {}. */
function unreadablePatchAsEmpty(): ProxyRules {
  return {
    request(request) {
      if (!isPatch(request) || requestJson(request) !== undefined) return request;
      return { ...request, headers: { ...request.headers, 'content-type': 'application/json' }, body: Buffer.from('{}') };
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A PATCH of a deployment_id that is not a uuid fails in the database: 500. */
function malformedIdServerError(): ProxyRules {
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
function otherKeyActsAsFirst(applies: (request: ProxiedRequest) => boolean): (keys: TargetKeys) => ProxyRules {
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
const DEFAULT_WORKSPACE = '00000000-0000-4000-8000-000000000001';

function mutant(id: string, family: Family, catches: string[], what: string, proxy: Mutant['proxy'], mode: Mutant['mode'] = 'hosted'): Mutant {
  return { kind: 'mutant', id, what, interface: 'control-plane', mode, family, catches, ...(proxy ? { proxy } : {}) };
}

export function controlPlaneRevisionMutants(): Mutant[] {
  const soleTrigger = (member: Trigger, label: string, mode: Mutant['mode'] = 'hosted') =>
    mutant(`cp.${label}-alone-no-revision`, 'revision triggers', [TRIGGERS[member]], `A PATCH whose only trigger is ${member} answers 200 but creates no revision.`, soleTriggerMakesNoRevision(member), mode);
  return [
    soleTrigger('repo_ref', 'repo-ref'),
    soleTrigger('graph_config_path', 'graph-config-path'),
    soleTrigger('image_uri', 'image-uri'),
    soleTrigger('source_tarball_path', 'tarball'),
    soleTrigger('resource_spec', 'resource-spec', 'self-hosted'),
    mutant('cp.create-makes-two-revisions', 'revision triggers', ['CP-REV-001'], 'Creating a deployment creates two revisions (a placeholder beside the one built).', twoRevisionsFor((r) => r.method === 'POST' && routeOf(r.path).collection)),
    mutant(
      'cp.combined-triggers-two-revisions',
      'revision triggers',
      ['CP-REV-008', 'CP-SEQ-001'],
      'A PATCH with several triggers creates two revisions.',
      twoRevisionsFor((r) => isPatch(r) && triggersOf(requestJson(r) ?? {}).length >= 2),
    ),
    mutant('cp.source-config-patch-revision', 'revision triggers', ['CP-REV-009'], 'A PATCH of source_config fields only (no resource_spec) creates a revision.', noTriggerMakesRevision('source_config')),
    mutant('cp.empty-patch-revision', 'revision triggers', ['CP-REV-010'], 'An empty PATCH ({}) creates a revision.', noTriggerMakesRevision('empty')),
    mutant('cp.null-members-patch-revision', 'revision triggers', ['CP-REV-011'], 'A PATCH whose members are all null creates a revision.', noTriggerMakesRevision('null members')),
    mutant('cp.latest-revision-never-moves', 'revisions', ['CP-REV-013'], "latest_revision_id stays the create's revision after revision-creating PATCHes.", latestNeverMoves),
    mutant(
      'cp.deployment-keeps-first-revision-config',
      'revisions',
      ['CP-REV-014'],
      "A deployment keeps showing its first revision's source_revision_config after PATCHes create revisions with other values.",
      keepsFirstRevisionConfig,
    ),
    mutant('cp.revisions-bare-array', 'listing', ['CP-REVL-001'], 'The revisions listing is a bare array, not {resources: [...]}.', () => listingBody((json) => json.resources)),
    mutant('cp.listed-revisions-without-status', 'listing', ['CP-REVL-003', 'CP-REVL-007', 'CP-REVL-008', 'CP-REVL-009'], 'Revisions in the listing carry no status.', () => eachListedRevision((r) => delete r.status)),
    mutant(
      'cp.older-revisions-lose-values',
      'listing',
      ['CP-REVL-005'],
      'In the revisions listing only the newest revision carries its SourceRevisionConfig values; older ones list them null.',
      () => eachListedRevision((r, i) => i > 0 && (r.source_revision_config = Object.fromEntries(REVISION_MEMBERS.map((m) => [m, null])))),
    ),
    mutant('cp.unknown-revision-answered', 'revisions', ['CP-REVL-006'], 'GET of a revision id the deployment does not have answers 200 with status UNKNOWN.', unknownRevisionAnswered),
    mutant('cp.active-revision-never-set', 'revisions', ['CP-LIFE-002', 'CP-LIFE-004'], 'active_revision_id stays null after a revision is DEPLOYED.', () => activeRevision(() => null)),
    mutant('cp.active-revision-pinned', 'revisions', ['CP-LIFE-004'], 'active_revision_id stays the first deployed revision when a newer one is DEPLOYED.', activePinnedToFirst),
    mutant(
      'cp.concurrent-latest-last-writer',
      'revision triggers',
      ['CP-CONC-002'],
      'After concurrent PATCHes latest_revision_id names the revision of the PATCH that wrote it last, not the newest.',
      concurrentLatestLastWriter,
    ),
    mutant('cp.patch-404-detail-without-id', 'errors', ['CP-ERR-002', 'CP-ERR-009'], 'The 404 detail of a PATCH does not name the deployment id ("Deployment not found.").', () => patchRefusalBody(404, () => ({ detail: 'Deployment not found.' }))),
    mutant('cp.patch-400-error-member', 'errors', ['CP-ERR-004'], 'A PATCH 400 answers {"error": <text>}, not {"detail": <string>}.', () => patchRefusalBody(400, (json) => ({ error: json.detail }))),
    mutant(
      'cp.patch-422-items-without-loc',
      'errors',
      ['CP-ERR-005'],
      'The detail items of a PATCH 422 have no loc.',
      () => patchRefusalBody(422, (json) => ({ detail: Array.isArray(json.detail) ? json.detail.map((d: unknown) => (isObject(d) ? { msg: d.msg, type: d.type } : d)) : json.detail })),
    ),
    mutant('cp.unreadable-patch-as-empty', 'errors', ['CP-ERR-006'], 'A PATCH whose body is not JSON, or empty, is read as {} and answered 200.', unreadablePatchAsEmpty),
    mutant('cp.malformed-id-server-error', 'errors', ['CP-ERR-008'], 'A PATCH whose deployment_id is not a uuid answers 500.', malformedIdServerError),
    mutant(
      'cp.other-workspace-can-change',
      'keys and tenants',
      ['CP-TEN-002'],
      "PATCH and DELETE with another workspace's credentials act on the deployment (its workspace is not checked).",
      otherKeyActsAsFirst((r) => (r.method === 'PATCH' || r.method === 'DELETE') && routeOf(r.path).deploymentId !== undefined),
    ),
    mutant(
      'cp.listing-ignores-workspace',
      'keys and tenants',
      ['CP-TEN-003'],
      "Another workspace's listing of deployments shows the first workspace's deployments.",
      otherKeyActsAsFirst((r) => r.method === 'GET' && routeOf(r.path).collection),
    ),
    mutant('cp.tenant-id-of-key', 'keys and tenants', ['CP-TEN-004'], "A deployment's tenant_id is the key's default workspace, not X-Tenant-Id's.", () => ({
      answer: (request, answer) => eachDeployment(request, answer, (d) => void (d.tenant_id = DEFAULT_WORKSPACE)),
    })),
  ];
}
