// What the agent server stores, and the interface both backends (memory, PostgreSQL) implement
// with the same behaviour: assistants with numbered versions and one active version, threads
// with their state.
import type { GraphState } from './graph.ts';

/** The configuration one assistant version holds. */
export interface AssistantConfig {
  graph_id: string;
  name: string;
  description: string | null;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
  config: Record<string, unknown>;
}

export interface AssistantVersion extends AssistantConfig {
  assistant_id: string;
  version: number;
  created_at: string;
}

/** An assistant as served: its active version's configuration. */
export interface AssistantRecord extends AssistantConfig {
  assistant_id: string;
  version: number;
  created_at: string;
  /** Last time a version was added or made active. */
  updated_at: string;
}

export type ThreadStatus = 'idle' | 'busy' | 'error' | 'interrupted';

export interface ThreadRecord {
  thread_id: string;
  created_at: string;
  updated_at: string;
  metadata: Record<string, unknown>;
  status: ThreadStatus;
  /** Null until a run has saved state. */
  values: GraphState | null;
  /** Id of the saved state, new on every save. */
  checkpoint_id: string | null;
}

export interface Page {
  limit: number;
  offset: number;
}

export interface AssistantQuery extends Page {
  /** Containment match, as PostgreSQL's jsonb `@>`. */
  metadata?: Record<string, unknown>;
  graph_id?: string;
}

export interface AgentStore {
  readonly kind: 'memory' | 'postgres';
  /** Creates version 1, or returns the existing assistant untouched (`created: false`). */
  createAssistant(assistantId: string, config: AssistantConfig): Promise<{ assistant: AssistantRecord; created: boolean }>;
  getAssistant(assistantId: string): Promise<AssistantRecord | undefined>;
  /** Adds version max+1 holding exactly `config` and makes it active. */
  addVersion(assistantId: string, config: AssistantConfig): Promise<AssistantRecord | undefined>;
  setActiveVersion(assistantId: string, version: number): Promise<AssistantRecord | 'no-assistant' | 'no-version'>;
  /** Removes the assistant and all its versions. */
  deleteAssistant(assistantId: string): Promise<boolean>;
  /** Newest first; undefined when the assistant does not exist. */
  listVersions(assistantId: string, query: Page & { metadata?: Record<string, unknown> }): Promise<AssistantVersion[] | undefined>;
  /** Newest first. */
  searchAssistants(query: AssistantQuery): Promise<AssistantRecord[]>;
  /** Creates a thread, or returns the existing one untouched (`created: false`). */
  createThread(threadId: string, metadata: Record<string, unknown>): Promise<{ thread: ThreadRecord; created: boolean }>;
  getThread(threadId: string): Promise<ThreadRecord | undefined>;
  /** Newest first. */
  searchThreads(query: Page & { metadata?: Record<string, unknown> }): Promise<ThreadRecord[]>;
  deleteThread(threadId: string): Promise<boolean>;
  saveThreadState(threadId: string, values: GraphState, status: ThreadStatus): Promise<void>;
  /**
   * Runs `work` while no other run of the thread runs, in this process or in any other process
   * on the same database, so each run starts from the state the previous one saved.
   */
  withThreadLock<T>(threadId: string, work: () => Promise<T>): Promise<T>;
  setThreadStatus(threadId: string, status: ThreadStatus): Promise<void>;
}
