// Fault switches of the control plane: deliberate deviations from the spec, each small and marked
// where it acts, so the harness's negative self-tests can check that a broken server is caught.
// Each is one record below; faults.md's tables are rendered from them.
import type { ReferenceContext } from '../context.ts';
import type { FaultSwitch } from '../fault-switch.ts';

export const CONTROL_PLANE_FAULT_SWITCHES = [
  { id: 'cp.revisions-oldest-first', what: '`GET /v2/deployments/{id}/revisions` lists oldest first.', breaks: '2.6: latest first', family: 'listing',
    fails: { mode: 'hosted', requirements: ['CP-REVL-002'] } },
  { id: 'cp.immutable-name-accepted', what: 'A PATCH carrying a different `name` is answered 200 and the name changes.', breaks: '2.1: name immutable',
    family: 'immutability', fails: { mode: 'hosted', requirements: ['CP-IMM-001'] } },
  { id: 'cp.no-revision-on-secrets', what: 'A PATCH with non-null `secrets` stores them but creates no revision.',
    breaks: '3: `secrets` non-null creates a revision', family: 'revision triggers', fails: { mode: 'hosted', requirements: ['CP-REV-006'] } },
  { id: 'cp.no-cpu-rounding', what: 'CPU values of `resource_spec` are stored and returned as sent (bounds are then checked on the unrounded value).',
    breaks: '2.4, 8: rounded to 1 decimal', family: 'resource_spec', fails: { mode: 'self-hosted', requirements: ['CP-RES-005'] } },
  { id: 'cp.no-resource-defaults', what: '`resource_spec` defaults (`cpu_limit` = 2x `cpu`, ...) are not filled in.', breaks: '2.4 defaults',
    family: 'resource_spec',
    fails: { mode: 'self-hosted', requirements: ['CP-RES-DEF-001', 'CP-RES-DEF-002', 'CP-RES-DEF-003', 'CP-RES-DEF-004', 'CP-RES-DEF-005',
      'CP-RES-DEF-006', 'CP-RES-DEF-007', 'CP-RES-DEF-008', 'CP-RES-DEF-009', 'CP-RES-DEF-010', 'CP-RES-DEF-011', 'CP-RES-DEF-012'] } },
  { id: 'cp.not-found-plain-text', what: 'Every 404 is `text/plain` carrying the detail text, not `{"detail": ...}`.', breaks: '7: 404 `{detail}`',
    family: 'errors', fails: { mode: 'hosted', requirements: ['CP-READ-004', 'CP-REVL-010', 'CP-ERR-001', 'CP-ERR-009'] } },
  { id: 'cp.validation-as-400', what: 'Schema violations (would be 422 `{detail: [{loc, msg, type}]}`) are 400 with a string `detail`.',
    breaks: '7: 422 HTTPValidationError', family: 'errors', fails: { mode: 'hosted', requirements: ['CP-ERR-003'] } },
  { id: 'cp.no-auth', what: 'Any `X-Api-Key`, or none, is accepted; the tenant is `X-Tenant-Id` or the first configured one.',
    breaks: '5: a valid key is required', family: 'keys and tenants',
    fails: { mode: 'hosted', requirements: ['CP-AUTH-001', 'CP-AUTH-002', 'CP-AUTH-003', 'CP-TEN-005'] } },
  { id: 'cp.tenant-leak', what: 'Reads of one deployment (GET, its revisions, upload-url) ignore the tenant: another workspace\'s deployment is visible.',
    breaks: '5: tenancy', family: 'keys and tenants', fails: { mode: 'hosted', requirements: ['CP-TEN-001'] } },
  { id: 'cp.delete-keeps', what: 'DELETE answers 204 but keeps the deployment; GET still finds it.', breaks: '4.1: DELETE deletes', family: 'deletion',
    fails: { mode: 'hosted', requirements: ['CP-DEL-002', 'CP-DEL-005'] } },
  { id: 'cp.revision-stuck', what: 'A revision that reaches BUILDING stays there forever.', breaks: '4.1 flow: revisions reach DEPLOYED or a FAILED status',
    family: 'revisions', fails: { mode: 'hosted', requirements: ['CP-LIFE-001', 'CP-LIFE-003'] } },
  { id: 'cp.failed-revision-active', what: 'A revision that ends with a status containing FAILED becomes the deployment\'s `active_revision_id`.',
    breaks: '2.1: active_revision_id is the currently deployed revision', family: 'revisions',
    fails: { mode: 'hosted', requirements: ['CP-LIFE-005'] } },
  { id: 'cp.patch-lost-under-concurrency',
    what: 'Changes of one deployment are not serialized: each PATCH reads, waits 5 ms, then writes what it read, so concurrent PATCHes overwrite each ' +
      'other\'s revisions.',
    breaks: '3: each revision-creating PATCH creates one revision', family: 'revision triggers', fails: { mode: 'hosted', requirements: ['CP-CONC-001'] } },
  { id: 'cp.tag-build-on-push-accepted', what: 'A tag `repo_ref` (`refs/tags/...`) with `build_on_push` true is accepted, on create and PATCH.',
    breaks: '2.2, 2.3', family: 'create and sources', fails: { mode: 'hosted', requirements: ['CP-TAG-001', 'CP-TAG-003', 'CP-TAG-004'] } },
  { id: 'cp.arbitrary-tarball-accepted',
    what: 'Any `source_tarball_path` is accepted (also on create), not only object paths handed out by upload-url for this deployment; its build succeeds.',
    breaks: '2.3: arbitrary paths are refused', family: 'create and sources', fails: { mode: 'hosted', requirements: ['CP-TAR-001', 'CP-TAR-002'] } },
  { id: 'cp.graph-config-path-optional', what: 'A gitforge or internal_source revision without `graph_config_path` is accepted.',
    breaks: '2.3: required for buildable sources', family: 'create and sources', fails: { mode: 'hosted', requirements: ['CP-GRAPH-001', 'CP-GRAPH-002'] } },
] as const satisfies readonly FaultSwitch[];

export type ControlPlaneFault = (typeof CONTROL_PLANE_FAULT_SWITCHES)[number]['id'];
export const CONTROL_PLANE_FAULTS: readonly ControlPlaneFault[] = CONTROL_PLANE_FAULT_SWITCHES.map((s) => s.id);

/** The control-plane faults switched on in `ctx`. */
export type FaultCheck = (fault: ControlPlaneFault) => boolean;

export function faultsOf(ctx: Pick<ReferenceContext, 'faults'>): FaultCheck {
  return (fault) => ctx.faults.has(fault);
}
