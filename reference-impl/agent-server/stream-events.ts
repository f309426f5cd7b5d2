// Turns the steps of a run into stream events for the requested stream modes. Payload shapes
// are documented in README.md ("Stream modes").
import { randomUUID } from 'node:crypto';
import type { GraphState } from './graph.ts';
import { FAULTS } from './faults.ts';
import type { Message } from './messages.ts';
import type { RunOutcome, StepObserver } from './run-graph.ts';

export const STREAM_MODES = ['values', 'updates', 'messages', 'messages-tuple', 'events', 'debug', 'tasks', 'checkpoints', 'custom'] as const;
export type StreamMode = (typeof STREAM_MODES)[number];

export function isStreamMode(value: unknown): value is StreamMode {
  return typeof value === 'string' && (STREAM_MODES as readonly string[]).includes(value);
}

export interface RunInfo {
  runId: string;
  threadId: string | undefined;
  assistantId: string;
  graphId: string;
  /** Node names in execution order, for `next` in checkpoints. */
  nodeNames: string[];
}

export type Send = (event: string, data: unknown) => void;

export class RunEventEmitter implements StepObserver {
  private readonly taskIds = new Map<string, string>();
  private checkpointId: string | null = null;

  constructor(
    private readonly modes: ReadonlySet<StreamMode>,
    private readonly run: RunInfo,
    private readonly send: Send,
    private readonly faults: ReadonlySet<string>,
  ) {}

  private has(mode: StreamMode): boolean {
    return this.modes.has(mode);
  }

  start(): void {
    this.send('metadata', { run_id: this.run.runId, attempt: 1 });
  }

  input(state: GraphState): void {
    this.chainEvent('on_chain_start', this.run.graphId, { input: state });
    if (this.has('values')) this.send('values', state);
    this.checkpoint(-1, state, 'input', this.run.nodeNames);
  }

  nodeStart(step: number, node: string, state: GraphState): void {
    const id = randomUUID();
    this.taskIds.set(node, id);
    const task = { id, name: node, input: state, triggers: [`branch:to:${node}`] };
    if (this.has('tasks')) this.send('tasks', task);
    this.debug('task', step + 1, task);
    this.chainEvent('on_chain_start', node, { input: state });
  }

  custom(_node: string, value: unknown): void {
    // Serialized now so a value JSON cannot carry fails inside the node that emitted it.
    const data: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
    if (this.has('custom')) this.send('custom', data);
  }

  nodeEnd(step: number, node: string, update: Record<string, unknown>, state: GraphState): void {
    const result = { id: this.taskIds.get(node), name: node, error: null, result: update, interrupts: [] };
    if (this.has('tasks')) this.send('tasks', result);
    this.debug('task_result', step + 1, result);
    // fault: the update is sent bare instead of keyed by the node's name.
    if (this.has('updates')) this.send('updates', this.faults.has(FAULTS.updatesNotKeyedByNode) ? update : { [node]: update });
    this.messages(step, node, update);
    if (this.has('values')) this.send('values', state);
    this.checkpoint(step, state, 'loop', this.run.nodeNames.slice(step + 1));
    this.chainEvent('on_chain_end', node, { output: update });
  }

  /** Trailing events: the graph's end, or the error that stopped it. */
  finish(outcome: RunOutcome): void {
    if (outcome.error) this.send('error', { error: outcome.error.name, message: outcome.error.message });
    else if (!outcome.cancelled) this.chainEvent('on_chain_end', this.run.graphId, { output: outcome.state });
  }

  private messageMetadata(step: number, node: string): Record<string, unknown> {
    return {
      run_id: this.run.runId,
      thread_id: this.run.threadId ?? null,
      assistant_id: this.run.assistantId,
      graph_id: this.run.graphId,
      graph_node: node,
      graph_step: step + 1,
    };
  }

  private messages(step: number, node: string, update: Record<string, unknown>): void {
    if (!this.has('messages') && !this.has('messages-tuple')) return;
    const produced = Array.isArray(update.messages) ? (update.messages as Message[]) : [];
    for (const message of produced.filter((m) => m.type === 'ai')) {
      const metadata = this.messageMetadata(step, node);
      if (this.has('messages')) {
        this.send('messages/metadata', { [message.id]: { metadata } });
        this.send('messages/partial', [message]);
        this.send('messages/complete', [message]);
      }
      if (this.has('messages-tuple')) this.send('messages', [message, metadata]);
    }
  }

  private checkpoint(step: number, values: GraphState, source: 'input' | 'loop', next: string[]): void {
    if (!this.has('checkpoints') && !this.has('debug')) return;
    const parent = this.checkpointId;
    this.checkpointId = randomUUID();
    const configOf = (checkpointId: string) => ({ configurable: { thread_id: this.run.threadId ?? null, checkpoint_ns: '', checkpoint_id: checkpointId } });
    const payload = {
      values,
      next,
      config: configOf(this.checkpointId),
      parent_config: parent === null ? null : configOf(parent),
      metadata: { source, step, run_id: this.run.runId },
      tasks: next.slice(0, 1).map((name) => ({ name, interrupts: [] })),
    };
    if (this.has('checkpoints')) this.send('checkpoints', payload);
    this.debug('checkpoint', step, payload);
  }

  private debug(type: 'checkpoint' | 'task' | 'task_result', step: number, payload: unknown): void {
    if (this.has('debug')) this.send('debug', { type, timestamp: new Date().toISOString(), step, payload });
  }

  private chainEvent(event: 'on_chain_start' | 'on_chain_end', name: string, data: Record<string, unknown>): void {
    if (!this.has('events')) return;
    this.send('events', { event, name, run_id: this.run.runId, data, metadata: { graph_id: this.run.graphId, assistant_id: this.run.assistantId }, tags: [], parent_ids: [] });
  }
}
