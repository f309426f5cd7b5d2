// Proxy mutants of the control plane's deployment fields (fields of one source only, tarballs,
// resource_spec, immutable fields, versioned paths, revision statuses): rules the fault switches do
// not break, each broken by a rewriting proxy in front of the reference (the rules:
// control-plane-deployment-rules.ts).
import { isObject } from '../../../schemas/is-object.ts';
import { editJson, editRequestJson } from '../../proxy/proxy.ts';
import type { ProxyMutant } from './mutant-record.ts';
import {
  answerJson,
  BOUNDED_CPU,
  BOUNDED_CPU_LIMITS,
  clamp,
  deploymentIdOf,
  ignoresOnCreate,
  immutableChanges,
  is2xx,
  isListing,
  type Json,
  jsonAnswer,
  objectAt,
  onCreate,
  onPatch,
  pathOf,
  requestJson,
  Sources,
  strip,
  validationError,
} from './control-plane-deployment-rules.ts';

export const CONTROL_PLANE_FIELD_PROXY_MUTANTS: readonly ProxyMutant[] = [
  // Fields that apply to one source only (2.1-2.3), dropped instead of refused
  {
    id: 'cp.gitforge-fields-ignored',
    what: 'gitforge-only source_config fields on another source are dropped, not refused.',
    breaks:
      'Spec 2.2: A create that sets a gitforge-only source_config field (integration_id, repo_url, deployment_type, build_on_push) for another source is refused with a 4xx status.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-APPL-001'] },
    rules: ignoresOnCreate('gitforge', 'source_config', ['integration_id', 'repo_url', 'deployment_type', 'build_on_push']),
  },
  {
    id: 'cp.listener-fields-ignored',
    what: 'listener_id and listener_config on a source other than external_container are dropped, not refused.',
    breaks:
      'Spec 2.2: A create that sets an external_container-only source_config field (listener_id, listener_config) for another source is refused with a 4xx status.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-APPL-002'] },
    rules: ignoresOnCreate('external_container', 'source_config', ['listener_id', 'listener_config']),
  },
  {
    id: 'cp.custom-url-ignored',
    what: 'custom_url on a source other than external_container is dropped, not refused.',
    breaks: 'Spec 2.2: custom_url is settable only for external_container; a create that sets it for another source is refused with a 4xx status.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-APPL-003'] },
    rules: ignoresOnCreate('external_container', 'source_config', ['custom_url']),
  },
  {
    id: 'cp.secret-references-ignored',
    what: 'secret_references on a source other than external_container are dropped, not refused.',
    breaks: 'Spec 2.1: A create that sets secret_references for a source other than external_container is refused with a 4xx status.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-APPL-004'] },
    rules: ignoresOnCreate('external_container', undefined, ['secret_references']),
  },
  {
    id: 'cp.repo-ref-ignored',
    what: 'repo_ref on a source other than gitforge is dropped, not refused.',
    breaks: 'Spec 2.3: A create that sets source_revision_config.repo_ref for a source other than gitforge is refused with a 4xx status.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-APPL-005'] },
    rules: ignoresOnCreate('gitforge', 'source_revision_config', ['repo_ref']),
  },
  {
    id: 'cp.tarball-path-ignored',
    what: 'source_tarball_path on a source other than internal_source is dropped, not refused.',
    breaks: 'Spec 2.3: A create that sets source_revision_config.source_tarball_path for a source other than internal_source is refused with a 4xx status.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-APPL-006'] },
    rules: ignoresOnCreate('internal_source', 'source_revision_config', ['source_tarball_path']),
  },
  {
    id: 'cp.patch-inapplicable-ignored',
    what: "A PATCH setting a field that does not apply to the deployment's source (other than resource_spec) has it dropped, not refused.",
    breaks: "Spec 4.1: A PATCH that sets a field that does not apply to the deployment's source is refused with 400 or 422.",
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-APPL-007'] },
    rules: () => {
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
    },
  },
  {
    id: 'cp.external-graph-path-ignored',
    what: "An external_container create's graph_config_path is dropped, not refused.",
    breaks: 'Spec 2.3: An external_container create with a non-null graph_config_path is refused with a 4xx status.',
    family: 'create and sources',
    fails: { mode: 'self-hosted', requirements: ['CP-GRAPH-003'] },
    rules: () => ({
      request: onCreate((body) => {
        if (body.source === 'external_container') strip(body, 'source_revision_config', ['graph_config_path']);
      }),
    }),
  },
  {
    id: 'cp.container-graph-path-ignored',
    what: "An internal_container create's graph_config_path is dropped, not refused.",
    breaks: 'Spec 2.3: An internal_container create with a non-null graph_config_path is refused with a 4xx status.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-GRAPH-004'] },
    rules: () => ({
      request: onCreate((body) => {
        if (body.source === 'internal_container') strip(body, 'source_revision_config', ['graph_config_path']);
      }),
    }),
  },
  {
    id: 'cp.tags-refused',
    what: 'A gitforge create whose repo_ref is a tag is refused even with build_on_push false.',
    breaks: 'Spec 2.3: A gitforge create whose repo_ref is a tag with build_on_push false is accepted (201).',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-TAG-002'] },
    rules: () => ({
      request: onCreate((body) =>
        body.source === 'gitforge' && String(objectAt(body, 'source_revision_config').repo_ref).startsWith('refs/tags/')
          ? validationError(['source_revision_config', 'repo_ref'], 'tags cannot be deployed')
          : undefined,
      ),
    }),
  },

  // Source tarballs (2.3, 4.1)
  {
    id: 'cp.no-upload-url',
    what: 'POST .../upload-url answers 404: the control plane has no upload endpoint.',
    breaks: 'Spec 4.1: POST /deployments/{deployment_id}/upload-url for an internal_source deployment answers 2xx with an upload location and an object path.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-UPL-001', 'CP-UPL-003'] },
    rules: () => ({
      request: (r) => (r.method === 'POST' && pathOf(r).endsWith('/upload-url') ? jsonAnswer(404, { detail: 'Not Found' }) : r),
    }),
  },
  {
    id: 'cp.tarball-patch-202',
    what: 'A PATCH naming a source_tarball_path answers 202 Accepted instead of 200.',
    breaks:
      'Spec 2.3: A PATCH with revision_source internal_source and, as source_tarball_path, an object path handed out by upload-url answers 200 and creates one revision carrying that path.',
    family: 'create and sources',
    fails: { mode: 'hosted', requirements: ['CP-UPL-002'] },
    rules: () => ({
      answer: (r, a) =>
        r.method === 'PATCH' && a.status === 200 && typeof objectAt(requestJson(r) ?? {}, 'source_revision_config').source_tarball_path === 'string'
          ? { ...a, status: 202 }
          : a,
    }),
  },

  // resource_spec (2.4, 8)
  {
    id: 'cp.resource-spec-ignored',
    what: 'A resource_spec on a create of a source other than external_container is dropped, not refused.',
    breaks: 'Spec 2.4: A create that sets resource_spec for a source other than external_container is refused with a 4xx status.',
    family: 'resource_spec',
    fails: { mode: 'hosted', requirements: ['CP-RES-001'] },
    rules: ignoresOnCreate('external_container', 'source_config', ['resource_spec']),
  },
  {
    id: 'cp.cpu-clamped',
    what: "A create's cpu, queue_cpu and cache_cpu outside 0.1 to 8 are clamped into the bounds, not refused.",
    breaks: 'Spec 8: A create with cpu, queue_cpu or cache_cpu outside 0.1 to 8 (whether checked before or after rounding) is refused with a 4xx status.',
    family: 'resource_spec',
    fails: { mode: 'self-hosted', requirements: ['CP-RES-002'] },
    rules: () => ({
      request: onCreate((body) => clamp(objectAt(body, 'source_config').resource_spec, BOUNDED_CPU, 0.1, 8)),
    }),
  },
  {
    id: 'cp.cpu-limit-clamped',
    what: "A create's CPU limits outside 0.1 to 16 are clamped into the bounds, not refused.",
    breaks:
      'Spec 8: A create with cpu_limit, queue_cpu_limit or cache_cpu_limit outside 0.1 to 16 (whether checked before or after rounding) is refused with a 4xx status.',
    family: 'resource_spec',
    fails: { mode: 'self-hosted', requirements: ['CP-RES-003'] },
    rules: () => ({
      request: onCreate((body) => clamp(objectAt(body, 'source_config').resource_spec, BOUNDED_CPU_LIMITS, 0.1, 16)),
    }),
  },
  {
    id: 'cp.cpu-upper-bound-exclusive',
    what: 'A CPU value equal to its upper bound (8, or 16 for limits) is refused: the bounds are checked with < instead of <=.',
    breaks: 'Spec 8: A create with every bounded CPU value inside its bounds, including the bounds themselves, is accepted (201).',
    family: 'resource_spec',
    fails: { mode: 'self-hosted', requirements: ['CP-RES-004'] },
    rules: () => ({
      request: onCreate((body) => {
        const spec = objectAt(objectAt(body, 'source_config'), 'resource_spec');
        const onBound = [...BOUNDED_CPU.filter((f) => spec[f] === 8), ...BOUNDED_CPU_LIMITS.filter((f) => spec[f] === 16)];
        return onBound.length > 0 ? validationError(['source_config', 'resource_spec', onBound[0]!], 'out of bounds') : undefined;
      }),
    }),
  },
  {
    id: 'cp.patch-cpu-clamped',
    what: "A PATCH's out-of-bounds CPU values are clamped into the bounds, not refused.",
    breaks: 'Spec 8: A PATCH with a resource_spec CPU value out of bounds is refused with 400 or 422 and creates no revision.',
    family: 'resource_spec',
    fails: { mode: 'self-hosted', requirements: ['CP-RES-006'] },
    rules: () => ({
      request: (r) =>
        r.method === 'PATCH' && requestJson(r)
          ? editRequestJson(r, (body) => {
              const spec = objectAt(body, 'source_config').resource_spec;
              clamp(spec, BOUNDED_CPU, 0.1, 8);
              clamp(spec, BOUNDED_CPU_LIMITS, 0.1, 16);
            })
          : r,
    }),
  },
  {
    id: 'cp.resource-spec-merged',
    what: "A PATCH's resource_spec is merged into the existing one instead of overwriting it.",
    breaks: 'Spec 2.4: A PATCH with a non-null resource_spec overwrites the existing one; values of the old spec that the new one does not give are not kept.',
    family: 'resource_spec',
    fails: { mode: 'self-hosted', requirements: ['CP-RES-007'] },
    rules: () => {
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
    },
  },
  {
    id: 'cp.patch-resource-spec-ignored',
    what: 'A PATCH setting resource_spec on a deployment whose source is not external_container has it dropped, not refused.',
    breaks: 'Spec 2.4: A PATCH that sets resource_spec on a deployment whose source is not external_container is refused with 400 or 422.',
    family: 'resource_spec',
    fails: { mode: 'hosted', requirements: ['CP-RES-008'] },
    rules: () =>
      onPatch(new Sources(), (body, source) => {
        if (source !== 'external_container') strip(body, 'source_config', ['resource_spec']);
      }),
  },

  // Immutable fields (2.1, 2.2): changed by a PATCH
  {
    id: 'cp.source-changes',
    what: "A PATCH can change a deployment's source.",
    breaks: 'Spec 2.1: source is immutable; a PATCH that tries to change it is refused (400 or 422) or leaves it unchanged.',
    family: 'immutability',
    fails: { mode: 'hosted', requirements: ['CP-IMM-002'] },
    rules: () => immutableChanges(['source']),
  },
  {
    id: 'cp.integration-id-changes',
    what: 'A PATCH can change source_config.integration_id.',
    breaks: 'Spec 2.2: source_config.integration_id is immutable; a PATCH that tries to change it is refused (400 or 422) or leaves it unchanged.',
    family: 'immutability',
    fails: { mode: 'hosted', requirements: ['CP-IMM-003'] },
    rules: () => immutableChanges(['source_config', 'integration_id']),
  },
  {
    id: 'cp.repo-url-changes',
    what: 'A PATCH can change source_config.repo_url.',
    breaks: 'Spec 2.2: source_config.repo_url is immutable; a PATCH that tries to change it is refused (400 or 422) or leaves it unchanged.',
    family: 'immutability',
    fails: { mode: 'hosted', requirements: ['CP-IMM-004'] },
    rules: () => immutableChanges(['source_config', 'repo_url']),
  },
  {
    id: 'cp.deployment-type-changes',
    what: 'A PATCH can change source_config.deployment_type.',
    breaks: 'Spec 2.2: source_config.deployment_type is immutable; a PATCH that tries to change it is refused (400 or 422) or leaves it unchanged.',
    family: 'immutability',
    fails: { mode: 'hosted', requirements: ['CP-IMM-005'] },
    rules: () => immutableChanges(['source_config', 'deployment_type']),
  },
  {
    id: 'cp.listener-id-changes',
    what: 'A PATCH can change source_config.listener_id.',
    breaks: 'Spec 2.2: source_config.listener_id is immutable; a PATCH that tries to change it is refused (400 or 422) or leaves it unchanged.',
    family: 'immutability',
    fails: { mode: 'self-hosted', requirements: ['CP-IMM-006'] },
    rules: () => immutableChanges(['source_config', 'listener_id']),
  },
  {
    id: 'cp.cluster-namespace-changes',
    what: 'A PATCH can change source_config.listener_config.cluster_namespace.',
    breaks:
      'Spec 2.2: source_config.listener_config.cluster_namespace is immutable; a PATCH that tries to change it is refused (400 or 422) or leaves it unchanged.',
    family: 'immutability',
    fails: { mode: 'self-hosted', requirements: ['CP-IMM-007'] },
    rules: () => immutableChanges(['source_config', 'listener_config', 'cluster_namespace']),
  },

  // Other endpoint groups and versioned paths (9)
  {
    id: 'cp.listing-moved-to-v1',
    what: 'GET /v2/deployments (the listing) answers 308, redirecting to /v1/deployments.',
    breaks: 'Spec 9: The deployments endpoints are served under the /v2/ prefix.',
    family: 'listing',
    fails: { mode: 'hosted', requirements: ['CP-VER-001', 'CP-READ-002', 'CP-READ-005'] },
    rules: () => ({
      // After authentication: a request the target refuses stays refused.
      answer: (r, a) => (isListing(r) && is2xx(a) ? { status: 308, headers: { location: r.path.replace('/v2/', '/v1/') }, body: Buffer.alloc(0) } : a),
    }),
  },
  {
    id: 'cp.no-integrations',
    what: 'GET /v1/integrations/gitforge/install answers 404.',
    breaks: 'Spec 9: GET /v1/integrations/gitforge/install (a /v1/ path) answers 2xx.',
    family: 'errors',
    fails: { mode: 'hosted', requirements: ['CP-VER-002', 'CP-VER-004'] },
    rules: () => ({
      request: (r) => (r.method === 'GET' && pathOf(r) === '/v1/integrations/gitforge/install' ? jsonAnswer(404, { detail: 'Not Found' }) : r),
    }),
  },
  {
    id: 'cp.no-listeners',
    what: 'GET /v2/listeners answers 404.',
    breaks: 'Spec 4.1: GET /v2/listeners answers 2xx.',
    family: 'errors',
    fails: { mode: 'self-hosted', requirements: ['CP-VER-003', 'CP-VER-005'] },
    rules: () => ({
      request: (r) => (r.method === 'GET' && pathOf(r) === '/v2/listeners' ? jsonAnswer(404, { detail: 'Not Found' }) : r),
    }),
  },

  // Revisions whose reported status lies or is missing
  {
    id: 'cp.failed-build-reported-deployed',
    what: 'A revision whose build failed is reported DEPLOYED.',
    breaks: 'Spec 2.6: A revision whose build or deployment fails ends with a status containing FAILED, never DEPLOYED.',
    family: 'revisions',
    fails: { mode: 'hosted', requirements: ['CP-LIFE-003'] },
    rules: () => ({
      answer: (r, a) =>
        r.method === 'GET' && /\/revisions\/[^/?]+$/.test(pathOf(r)) && is2xx(a)
          ? editJson(a, (json) => String(json.status).includes('FAILED') && (json.status = 'DEPLOYED'))
          : a,
    }),
  },
  // Its status is missing, so outside the known ones (CP-REVL-009): the waits that poll it stop, blocked by that rule, rather than fail.
  {
    id: 'cp.revision-without-status',
    what: 'GET of one revision answers it without its status, so a client polling it never sees it finish.',
    breaks: "Spec 4.1: GET /v2/deployments/{deployment_id}/revisions/{revision_id} answers 200 with that revision's id and a status.",
    family: 'revisions',
    fails: { mode: 'hosted', requirements: ['CP-REVL-004', 'CP-REVL-009'] },
    rules: () => ({
      answer: (r, a) =>
        r.method === 'GET' && /^\/v2\/deployments\/[^/]+\/revisions\/[^/?]+$/.test(pathOf(r)) && is2xx(a) ? editJson(a, (json) => delete json.status) : a,
    }),
  },
];
