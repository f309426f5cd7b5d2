// Every fault switch of the reference implementation, by interface: the names `apc serve --fault`
// and `apc certify --reference-fault` accept. Each interface's faults.ts (and faults.md) owns its list.
import { AGENT_SERVER_FAULTS } from './agent-server/faults.ts';
import { CONTROL_PLANE_FAULTS } from './control-plane/faults.ts';
import { TRACING_FAULTS } from './experiment-upload/faults.ts';

export const FAULTS_BY_INTERFACE: Record<string, readonly string[]> = {
  'control plane': CONTROL_PLANE_FAULTS,
  'agent server': AGENT_SERVER_FAULTS,
  'experiment upload': TRACING_FAULTS,
};

export const ALL_FAULTS: readonly string[] = Object.values(FAULTS_BY_INTERFACE).flat();
