// Proxy mutants of the control plane's deployments (create, read, delete, the sources each mode
// accepts): rules the fault switches do not break, each broken by a rewriting proxy in front of
// the reference (the rules: control-plane-deployment-rules.ts).
import { randomUUID } from 'node:crypto';
import { DEPLOYMENT_TYPES, SOURCES } from '../../../schemas/index.ts';
import { isObject } from '../../../schemas/is-object.ts';
import { editJson, type ProxiedAnswer } from '../../proxy/proxy.ts';
import type { ProxyMutant } from './mutant-record.ts';
import {
  answerJson,
  createdByProperty,
  createPropertyAnswers,
  deploymentIdOf,
  fakeCreated,
  inferredSource,
  is2xx,
  isListing,
  jsonAnswer,
  objectAt,
  ofCreateProperty,
  onCreate,
  refusesSource,
  requestJson,
} from './control-plane-deployment-rules.ts';

export const CONTROL_PLANE_DEPLOYMENT_PROXY_MUTANTS: readonly ProxyMutant[] = [
  // Create and read (2.1, 3, 4.1)
  {
    id: 'cp.create-answers-200',
    what: 'A create answers 200 instead of 201.',
    breaks: 'Spec 4.1: POST /v2/deployments with a valid body answers 201 with a Deployment body.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-CREATE-001'] },
    rules: () => ({
      answer: (r, a) => (a.status === 201 && createdByProperty(r, a) ? { ...a, status: 200 } : a),
    }),
  },
  {
    id: 'cp.create-without-updated-at',
    what: 'The create answer has no updated_at.',
    breaks:
      'Spec 2.1: A returned Deployment carries every required field (name, source, source_config, source_revision_config, secrets, id, tenant_id, created_at, updated_at, status, latest_revision_id, active_revision_id) with the type section 2.1 gives it.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-CREATE-002'] },
    rules: () => ({
      answer: (r, a) => (createdByProperty(r, a) ? editJson(a, (json) => delete json.updated_at) : a),
    }),
  },
  {
    id: 'cp.create-without-latest-revision',
    what: 'The create answer has a null latest_revision_id (its first revision is made later).',
    breaks: "Spec 3: The create response carries the new deployment's id and a non-null latest_revision_id.",
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-CREATE-003'] },
    rules: () => ({
      answer: (r, a) => (createdByProperty(r, a) ? editJson(a, (json) => (json.latest_revision_id = null)) : a),
    }),
  },
  {
    id: 'cp.name-reported-truncated',
    what: 'A deployment reports its name cut to 24 characters.',
    breaks: 'Spec 2.1: The created deployment has the name and source that were sent.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-CREATE-004'] },
    rules: () => createPropertyAnswers((json) => (json.name = String(json.name).slice(0, 24))),
  },
  {
    id: 'cp.revision-config-reported-empty',
    what: 'A new deployment reports an empty source_revision_config.',
    breaks:
      "Spec 2.3: The created deployment's source_config and source_revision_config hold the values that were sent (resource_spec as normalized by section 2.4).",
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-CREATE-005'] },
    rules: () => createPropertyAnswers((json) => (json.source_revision_config = {})),
  },
  {
    id: 'cp.create-drops-secrets',
    what: 'The secrets of a create body are not stored.',
    breaks: 'Spec 2.1: The created deployment lists every secret that was sent, by name.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-CREATE-006'] },
    rules: () => ({
      request: onCreate((body) => {
        if (ofCreateProperty(body.name)) body.secrets = [];
      }),
    }),
  },
  {
    id: 'cp.missing-fields-defaulted',
    what: 'A create without name, secrets or source_config is accepted with defaults (a made-up name, none, empty).',
    breaks: 'Spec 4.1: A create body missing one of name, source, source_config, source_revision_config or secrets is refused with a 4xx status.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-CREATE-007'] },
    rules: () => ({
      request: onCreate((body) => {
        body.name ??= `unnamed-${randomUUID().slice(0, 8)}`;
        body.secrets ??= [];
        body.source_config ??= {};
      }),
    }),
  },
  {
    id: 'cp.types-coerced',
    what: 'Create fields of the wrong type are coerced (String(name), a non-list of secrets as none, unknown enums as defaults) instead of refused.',
    breaks: 'Spec 2.1: A create body with a field of the wrong type or an enum field outside its values is refused with a 4xx status.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-CREATE-008'] },
    rules: () => ({
      request: onCreate((body) => {
        if (body.name !== undefined && typeof body.name !== 'string')
          body.name = `n${JSON.stringify(body.name)
            .toLowerCase()
            .replace(/[^a-z0-9]/g, '')}-${randomUUID().slice(0, 8)}`;
        if (body.secrets !== undefined) {
          const list = Array.isArray(body.secrets) ? body.secrets : [];
          body.secrets = list.filter(isObject).map((s) => ({ name: String(s.name), value: String(s.value ?? 'sv-coerced') }));
        }
        if (body.source_config !== undefined && !isObject(body.source_config)) body.source_config = {};
        const config = objectAt(body, 'source_config');
        if (config.deployment_type != null && !(DEPLOYMENT_TYPES as readonly unknown[]).includes(config.deployment_type)) config.deployment_type = 'dev';
        if (config.build_on_push != null && typeof config.build_on_push !== 'boolean') config.build_on_push = Boolean(config.build_on_push);
      }),
    }),
  },
  {
    id: 'cp.secrets-patch-202',
    what: 'A PATCH changing secrets answers 202 Accepted instead of 200.',
    breaks: 'Spec 4.1: PATCH /v2/deployments/{deployment_id} with a valid body answers 200 with the Deployment.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-PATCH-001', 'CP-CONC-001'] },
    rules: () => ({
      answer: (r, a) => (r.method === 'PATCH' && a.status === 200 && Array.isArray(requestJson(r)?.secrets) ? { ...a, status: 202 } : a),
    }),
  },
  {
    id: 'cp.read-without-updated-at',
    what: 'GET of one deployment answers it without updated_at.',
    breaks: 'Spec 4.1: GET /v2/deployments/{deployment_id} answers 200 with the Deployment, the same one the create returned.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-READ-001'] },
    rules: () => ({
      answer: (r, a) => (r.method === 'GET' && deploymentIdOf(r) !== undefined && is2xx(a) ? editJson(a, (json) => delete json.updated_at) : a),
    }),
  },
  {
    id: 'cp.listing-without-secrets',
    what: 'The deployments listing gives each deployment without its secrets.',
    breaks: 'Spec 4.1: GET /v2/deployments answers 200 with a list of Deployments (an array, or an object holding one).',
    family: 'listing',
    fails: { mode: 'hosted', requirements: ['CP-READ-002', 'CP-READ-005'] },
    rules: () => ({
      answer: (r, a) =>
        isListing(r) && is2xx(a)
          ? editJson(a, (json) => {
              for (const item of Array.isArray(json.resources) ? json.resources : []) if (isObject(item)) delete item.secrets;
            })
          : a,
    }),
  },
  {
    id: 'cp.listing-not-a-list',
    what: 'GET /v2/deployments answers an object holding no list.',
    breaks: 'Spec 4.1: GET /v2/deployments answers 200 with a list of Deployments (an array, or an object holding one).',
    family: 'listing',
    fails: { mode: 'hosted', requirements: ['CP-READ-002', 'CP-READ-005'] },
    rules: () => ({
      answer: (r, a) => (isListing(r) && is2xx(a) ? jsonAnswer(200, { resources: 'none' }) : a),
    }),
  },
  {
    id: 'cp.unknown-id-crashes',
    what: 'GET of a deployment id the control plane never issued answers 500 (deleted and foreign ids still 404).',
    breaks: 'Spec 4.1: GET of a deployment id that does not exist is refused with a 4xx status.',
    family: 'errors',
    fails: { mode: 'hosted', requirements: ['CP-READ-003', 'CP-READ-004'] },
    rules: () => {
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
    },
  },

  // Delete (4.1)
  {
    id: 'cp.delete-answers-200',
    what: "DELETE answers 200 with the deleted deployment's id instead of 204 with no body.",
    breaks: 'Spec 4.1: DELETE /v2/deployments/{deployment_id} answers 204 with no body.',
    family: 'deletion',
    fails: { mode: 'hosted', requirements: ['CP-DEL-001', 'CP-DEL-004'] },
    rules: () => ({
      answer: (r, a) => (r.method === 'DELETE' && a.status === 204 ? jsonAnswer(200, { id: deploymentIdOf(r) }) : a),
    }),
  },
  {
    id: 'cp.delete-unknown-204',
    what: "DELETE of a deployment id it does not find (unknown, or another workspace's) answers 204 as if deleted, instead of a 4xx.",
    breaks: 'Spec 4.1: DELETE of a deployment id that does not exist is refused with a 4xx status.',
    family: 'deletion',
    fails: { mode: 'hosted', requirements: ['CP-DEL-003', 'CP-TEN-002'] },
    rules: () => ({
      answer: (r, a) => (r.method === 'DELETE' && a.status === 404 ? { status: 204, headers: {}, body: Buffer.alloc(0) } : a),
    }),
  },

  // Sources each mode accepts (2.1)
  {
    id: 'cp.no-gitforge',
    what: 'A hosted control plane refuses gitforge deployments.',
    breaks: 'Spec 2.1: A hosted control plane accepts a gitforge deployment.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-SRC-001', 'CP-TAG-002'] },
    rules: refusesSource('gitforge'),
  },
  {
    id: 'cp.hosted-accepts-external',
    what: 'A hosted control plane accepts external_container creates.',
    breaks: 'Spec 2.1: A hosted control plane refuses an external_container deployment with a 4xx status.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-SRC-002'] },
    rules: () => ({
      request: onCreate((body) => (body.source === 'external_container' ? fakeCreated(body) : undefined)),
    }),
  },
  {
    id: 'cp.no-external-container',
    what: 'A self-hosted control plane refuses external_container deployments.',
    breaks: 'Spec 2.1: A self-hosted control plane accepts an external_container deployment.',
    family: 'create and sources',
    fails: { mode: 'self-hosted', requirements: ['CP-SRC-003', 'CP-RES-004'] },
    rules: refusesSource('external_container'),
  },
  {
    id: 'cp.self-hosted-accepts-gitforge',
    what: 'A self-hosted control plane accepts gitforge creates.',
    breaks: 'Spec 2.1: A self-hosted control plane refuses a gitforge deployment with a 4xx status.',
    family: 'create and sources',
    fails: { mode: 'self-hosted', requirements: ['CP-SRC-004'] },
    rules: () => ({
      request: onCreate((body) => (body.source === 'gitforge' ? fakeCreated(body) : undefined)),
    }),
  },
  {
    id: 'cp.no-internal-container',
    what: 'The control plane refuses internal_container deployments.',
    breaks: 'Spec 2.1: An internal_container deployment with an image_uri is accepted.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-SRC-005'] },
    rules: refusesSource('internal_container'),
  },
  {
    id: 'cp.no-internal-source',
    what: 'The control plane refuses internal_source deployments.',
    breaks: 'Spec 2.1: An internal_source deployment with a graph_config_path is accepted.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-SRC-006'] },
    rules: refusesSource('internal_source'),
  },
  {
    id: 'cp.unknown-source-inferred',
    what: 'A create whose source is not one of the four is taken as the source its config suggests.',
    breaks: 'Spec 2.1: A create whose source is not one of gitforge, external_container, internal_container, internal_source is refused with a 4xx status.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-SRC-007'] },
    rules: () => ({
      request: onCreate((body) => {
        if (body.source !== undefined && !(SOURCES as readonly unknown[]).includes(body.source)) body.source = inferredSource(body);
      }),
    }),
  },
];
