// Every fault switch of the reference implementation, by interface: the names `apc serve --fault`
// and `apc certify --reference-fault` accept. Each interface's faults.ts owns its records.
import type { InterfaceName } from '../schemas/vocabulary.ts';
import { AGENT_SERVER_FAULT_SWITCHES, AGENT_SERVER_FAULTS } from './agent-server/faults.ts';
import { CONTROL_PLANE_FAULT_SWITCHES, CONTROL_PLANE_FAULTS } from './control-plane/faults.ts';
import { EXPERIMENT_UPLOAD_FAULT_SWITCHES, EXPERIMENT_UPLOAD_FAULTS } from './experiment-upload/faults.ts';
import type { FaultSwitch } from './fault-switch.ts';

/** The records of every switch, by interface (each interface's folder has its name). */
export const FAULT_SWITCHES: Record<InterfaceName, readonly FaultSwitch[]> = {
  'control-plane': CONTROL_PLANE_FAULT_SWITCHES,
  'agent-server': AGENT_SERVER_FAULT_SWITCHES,
  'experiment-upload': EXPERIMENT_UPLOAD_FAULT_SWITCHES,
};

export const FAULTS_BY_INTERFACE: Record<string, readonly string[]> = {
  'control plane': CONTROL_PLANE_FAULTS,
  'agent server': AGENT_SERVER_FAULTS,
  'experiment upload': EXPERIMENT_UPLOAD_FAULTS,
};

export const ALL_FAULTS: readonly string[] = Object.values(FAULTS_BY_INTERFACE).flat();
