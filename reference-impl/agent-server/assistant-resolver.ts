// Finds the assistant a path or a run names: an assistant uuid, or a graph id standing for that
// graph's default (system-created) assistant.
import { notFound } from '../http-errors.ts';
import type { AgentServerDeps } from './deps.ts';
import { FAULTS } from './faults.ts';
import { isUuid } from './request-checks.ts';
import type { AssistantRecord } from './store.ts';

/** The stored id an `assistant_id` refers to, or undefined when it cannot name one. */
export function assistantIdOf(deps: AgentServerDeps, idOrGraph: string): string | undefined {
  // fault: graph ids are not accepted in place of an assistant id.
  if (deps.graphs.get(idOrGraph) && !deps.faults.has(FAULTS.graphNameRefused)) return deps.graphs.defaultAssistantId(idOrGraph);
  return isUuid(idOrGraph) ? idOrGraph.toLowerCase() : undefined;
}

export function assistantNotFound(deps: AgentServerDeps, idOrGraph: string) {
  return notFound(
    `Assistant ${JSON.stringify(idOrGraph)} not found. Expected the uuid of an existing assistant or a graph id this server serves (${deps.graphs.ids.join(', ')}).`,
  );
}

export async function resolveAssistant(deps: AgentServerDeps, idOrGraph: string): Promise<AssistantRecord> {
  const id = assistantIdOf(deps, idOrGraph);
  const assistant = id === undefined ? undefined : await deps.store.getAssistant(id);
  if (!assistant) throw assistantNotFound(deps, idOrGraph);
  return assistant;
}
