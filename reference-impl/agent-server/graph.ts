// The graph interface of the reference agent server: what a module named in `graph.json` exports.
// Deliberately small: named nodes run one after another, each returning an update that is merged
// into the state by a reducer per key.

/** A state: JSON values by key. */
export type GraphState = Record<string, unknown>;

/** What a node returns: the keys it changes. `undefined` or `{}` changes nothing. */
export type GraphUpdate = Record<string, unknown> | undefined;

/** Given to every node of a run. */
export interface RunContext {
  runId: string;
  /** Undefined on stateless runs. */
  threadId: string | undefined;
  assistantId: string;
  graphId: string;
  /** The run's effective context: graph defaults, then the assistant's context, then the run's. */
  context: Record<string, unknown>;
  /** Sends a value to `custom` stream-mode subscribers right away. */
  emit(value: unknown): void;
  /** Aborted when the client disconnects; long nodes may stop early. */
  signal: AbortSignal;
}

export interface GraphNode {
  name: string;
  run(state: GraphState, context: RunContext): GraphUpdate | Promise<GraphUpdate>;
}

/** Merges a node's value for one key into the current value. */
export type Reducer = (current: unknown, update: unknown) => unknown;

export interface Graph {
  /** Executed in this order, once each per run. */
  nodes: GraphNode[];
  /**
   * Reducers by state key. Keys without one are replaced by the update; `messages` defaults to
   * the message reducer (append, replacing a message with the same `id`).
   */
  reducers?: Record<string, Reducer>;
  /** JSON Schema of the context object (assistant `context` and run `context`). */
  contextSchema?: Record<string, unknown>;
  /** Context values used when neither the assistant nor the run sets them. */
  contextDefaults?: Record<string, unknown>;
}

/** A graph as the server knows it: its id and where it came from. */
export interface RegisteredGraph {
  graphId: string;
  graph: Graph;
  /** `built-in`, or the `graph.json` entry it was loaded from. */
  source: string;
}
