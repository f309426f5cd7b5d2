// Proxy mutants of the agent-server: rules the fault switches do not break, each broken by a
// rewriting proxy in front of the reference.
import type { Mutant } from '../subjects.ts';

export function agentServerMutants(): Mutant[] {
  return [];
}
