// Fault switches of the control plane: deliberate deviations from the spec, each small and marked
// where it acts, so the harness's negative self-tests can check that a broken server is caught.
// faults.md describes each one.
import type { ReferenceContext } from '../context.ts';

export const CONTROL_PLANE_FAULTS = [
  'cp.revisions-oldest-first',
  'cp.immutable-name-accepted',
  'cp.no-revision-on-secrets',
  'cp.no-cpu-rounding',
  'cp.no-resource-defaults',
  'cp.not-found-plain-text',
  'cp.validation-as-400',
  'cp.no-auth',
  'cp.tenant-leak',
  'cp.delete-keeps',
  'cp.revision-stuck',
  'cp.patch-lost-under-concurrency',
  'cp.tag-build-on-push-accepted',
  'cp.arbitrary-tarball-accepted',
  'cp.graph-config-path-optional',
] as const;

export type ControlPlaneFault = (typeof CONTROL_PLANE_FAULTS)[number];

/** The control-plane faults switched on in `ctx`. */
export type FaultCheck = (fault: ControlPlaneFault) => boolean;

export function faultsOf(ctx: Pick<ReferenceContext, 'faults'>): FaultCheck {
  return (fault) => ctx.faults.has(fault);
}
