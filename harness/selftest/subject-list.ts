// Every subject apc selftest certifies, in the order it runs them.
import { controlPlaneDeploymentMutants } from './mutants/control-plane-deployments.ts';
import { controlPlaneRevisionMutants } from './mutants/control-plane-revisions.ts';
import { agentServerMutants } from './mutants/agent-server.ts';
import { experimentUploadMutants } from './mutants/experiment-upload.ts';
import { faultSwitchMutants } from './mutants/fault-switches.ts';
import { generatedMutants } from './mutants/generated/derive.ts';
import { hostileTargets } from './hostile.ts';
import type { Subject } from './subjects.ts';
import { platformVariations } from './platform-variations.ts';
import { variations } from './variations.ts';

export function selftestSubjects(): Subject[] {
  return [...faultSwitchMutants(), ...controlPlaneDeploymentMutants(), ...controlPlaneRevisionMutants(), ...agentServerMutants(), ...experimentUploadMutants(), ...generatedMutants(), ...variations(), ...platformVariations(), ...hostileTargets()];
}
