// Every subject apc selftest certifies, in the order it runs them.
import { controlPlaneMutants } from './mutants/control-plane.ts';
import { agentServerMutants } from './mutants/agent-server.ts';
import { experimentUploadMutants } from './mutants/experiment-upload.ts';
import { faultSwitchMutants } from './mutants/fault-switches.ts';
import { hostileTargets } from './hostile.ts';
import type { Subject } from './subjects.ts';
import { variations } from './variations.ts';

export function selftestSubjects(): Subject[] {
  return [...faultSwitchMutants(), ...controlPlaneMutants(), ...agentServerMutants(), ...experimentUploadMutants(), ...variations(), ...hostileTargets()];
}
