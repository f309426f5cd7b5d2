// Executes a graph inline: the input is applied as the first update, then each node in order.
// An observer sees every step as it happens, so a stream can send it without delay.
import type { Graph, GraphState, GraphUpdate, RunContext } from './graph.ts';
import { appendMessages, toMessages } from './messages.ts';

export interface StepObserver {
  /** The state once the input is applied (step -1). */
  input(state: GraphState): void;
  /** A node is about to run on `state`. */
  nodeStart(step: number, node: string, state: GraphState): void;
  /** A node called `emit(value)`. */
  custom(node: string, value: unknown): void;
  /** A node finished: its update (messages given ids) and the state after it. */
  nodeEnd(step: number, node: string, update: Record<string, unknown>, state: GraphState): void;
}

export interface RunOutcome {
  /** The state after the last completed step. */
  state: GraphState;
  /** Set when a node threw or returned something other than an update. */
  error?: { name: string; message: string };
  /** True when the run stopped early because its signal was aborted. */
  cancelled: boolean;
}

/** Thrown for a node's return value that is not an update object. */
export class InvalidUpdateError extends Error {
  override name = 'InvalidUpdateError';
}

function isUpdate(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Applies an update with the graph's reducers; messages get ids first so every view shares them. */
function applyUpdate(graph: Graph, state: GraphState, update: Record<string, unknown>): { state: GraphState; update: Record<string, unknown> } {
  const custom = graph.reducers ?? {};
  const normalized = 'messages' in update && !custom.messages ? { ...update, messages: toMessages(update.messages) } : update;
  const next: GraphState = { ...state };
  for (const [key, value] of Object.entries(normalized)) {
    const reducer = custom[key] ?? (key === 'messages' ? appendMessages : undefined);
    next[key] = reducer ? reducer(state[key], value) : value;
  }
  return { state: next, update: normalized };
}

export async function runGraph(
  graph: Graph,
  start: GraphState,
  input: Record<string, unknown> | null,
  context: Omit<RunContext, 'emit'>,
  observer: StepObserver,
): Promise<RunOutcome> {
  let state = input === null ? start : applyUpdate(graph, start, input).state;
  observer.input(state);
  for (const [step, node] of graph.nodes.entries()) {
    if (context.signal.aborted) return { state, cancelled: true };
    observer.nodeStart(step, node.name, state);
    let returned: GraphUpdate;
    try {
      returned = await node.run(structuredClone(state), { ...context, emit: (value) => observer.custom(node.name, value) });
      if (returned !== undefined && !isUpdate(returned)) {
        throw new InvalidUpdateError(`Node "${node.name}" returned ${returned === null ? 'null' : Array.isArray(returned) ? 'an array' : typeof returned}; expected an object of state keys or undefined.`);
      }
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      return { state, error: { name: error.name || 'Error', message: error.message }, cancelled: false };
    }
    const applied = applyUpdate(graph, state, returned ?? {});
    state = applied.state;
    observer.nodeEnd(step, node.name, applied.update, state);
  }
  return { state, cancelled: false };
}
