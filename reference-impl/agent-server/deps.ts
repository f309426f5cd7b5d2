// What the route modules of the agent server share.
import type { ReferenceContext } from '../context.ts';
import type { GraphRegistry } from './graph-registry.ts';
import type { AgentStore } from './store.ts';

export interface AgentServerDeps {
  ctx: ReferenceContext;
  store: AgentStore;
  graphs: GraphRegistry;
  faults: ReadonlySet<string>;
}
