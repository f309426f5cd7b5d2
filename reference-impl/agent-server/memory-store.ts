// The in-memory backend: the default, lost on restart.
import { randomUUID } from 'node:crypto';
import type { GraphState } from './graph.ts';
import { jsonContains } from './json-contains.ts';
import { KeyedLock } from './keyed-lock.ts';
import type { AgentStore, AssistantConfig, AssistantQuery, AssistantRecord, AssistantVersion, Page, ThreadRecord, ThreadStatus } from './store.ts';

interface StoredAssistant {
  seq: number;
  created_at: string;
  updated_at: string;
  active: number;
  versions: AssistantVersion[];
}

const now = () => new Date().toISOString();

/**
 * Records enter and leave the store as JSON copies: callers cannot change stored state by
 * accident, and values keep exactly what the PostgreSQL store (jsonb) would keep.
 */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function page<T>(items: T[], { limit, offset }: Page): T[] {
  return items.slice(offset, offset + limit);
}

// Nothing to recover on start: a run cut off by a crash takes its busy thread with it, since
// everything here is lost on restart (postgres-run-recovery.ts does it for PostgreSQL).
export class MemoryStore implements AgentStore {
  readonly kind = 'memory';
  private seq = 0;
  private readonly assistants = new Map<string, StoredAssistant>();
  private readonly threads = new Map<string, ThreadRecord & { seq: number }>();
  private readonly threadLocks = new KeyedLock();

  private view(assistantId: string, stored: StoredAssistant): AssistantRecord {
    const active = stored.versions.find((v) => v.version === stored.active)!;
    const { created_at: _versionCreated, ...config } = active;
    return copy({ ...config, assistant_id: assistantId, created_at: stored.created_at, updated_at: stored.updated_at });
  }

  async createAssistant(assistantId: string, config: AssistantConfig) {
    const existing = this.assistants.get(assistantId);
    if (existing) return { assistant: this.view(assistantId, existing), created: false };
    const at = now();
    const stored: StoredAssistant = {
      seq: ++this.seq,
      created_at: at,
      updated_at: at,
      active: 1,
      versions: [copy({ ...config, assistant_id: assistantId, version: 1, created_at: at })],
    };
    this.assistants.set(assistantId, stored);
    return { assistant: this.view(assistantId, stored), created: true };
  }

  async getAssistant(assistantId: string) {
    const stored = this.assistants.get(assistantId);
    return stored && this.view(assistantId, stored);
  }

  async addVersion(assistantId: string, config: AssistantConfig) {
    const stored = this.assistants.get(assistantId);
    if (!stored) return undefined;
    const at = now();
    const version = Math.max(...stored.versions.map((v) => v.version)) + 1;
    stored.versions.push(copy({ ...config, assistant_id: assistantId, version, created_at: at }));
    stored.active = version;
    stored.updated_at = at;
    return this.view(assistantId, stored);
  }

  async setActiveVersion(assistantId: string, version: number) {
    const stored = this.assistants.get(assistantId);
    if (!stored) return 'no-assistant' as const;
    if (!stored.versions.some((v) => v.version === version)) return 'no-version' as const;
    stored.active = version;
    stored.updated_at = now();
    return this.view(assistantId, stored);
  }

  async deleteAssistant(assistantId: string) {
    return this.assistants.delete(assistantId);
  }

  async listVersions(assistantId: string, query: Page & { metadata?: Record<string, unknown> }) {
    const stored = this.assistants.get(assistantId);
    if (!stored) return undefined;
    const matching = [...stored.versions].reverse().filter((v) => !query.metadata || jsonContains(v.metadata, query.metadata));
    return copy(page(matching, query));
  }

  async searchAssistants(query: AssistantQuery) {
    // The map holds assistants in creation (seq) order: walking it backwards gives newest first
    // without a sort, and only the page is copied out.
    const entries = [...this.assistants.entries()];
    const found: AssistantRecord[] = [];
    let skipped = 0;
    for (let i = entries.length - 1; i >= 0 && found.length < query.limit; i -= 1) {
      const [id, stored] = entries[i]!;
      const active = stored.versions.find((v) => v.version === stored.active)!;
      if (query.graph_id !== undefined && active.graph_id !== query.graph_id) continue;
      if (query.metadata && !jsonContains(active.metadata, query.metadata)) continue;
      if (skipped < query.offset) skipped += 1;
      else found.push(this.view(id, stored));
    }
    return found;
  }

  async createThread(threadId: string, metadata: Record<string, unknown>) {
    const existing = this.threads.get(threadId);
    if (existing) return { thread: this.threadView(existing), created: false };
    const at = now();
    const thread = { seq: ++this.seq, thread_id: threadId, created_at: at, updated_at: at, metadata: copy(metadata), status: 'idle' as const, values: null, checkpoint_id: null };
    this.threads.set(threadId, thread);
    return { thread: this.threadView(thread), created: true };
  }

  private threadView({ seq: _seq, ...thread }: ThreadRecord & { seq: number }): ThreadRecord {
    return copy(thread);
  }

  async getThread(threadId: string) {
    const thread = this.threads.get(threadId);
    return thread && this.threadView(thread);
  }

  async searchThreads(query: Page & { metadata?: Record<string, unknown> }) {
    const matching = [...this.threads.values()]
      .sort((a, b) => b.seq - a.seq)
      .filter((t) => !query.metadata || jsonContains(t.metadata, query.metadata));
    return page(matching, query).map((t) => this.threadView(t));
  }

  async deleteThread(threadId: string) {
    return this.threads.delete(threadId);
  }

  withThreadLock<T>(threadId: string, work: () => Promise<T>): Promise<T> {
    return this.threadLocks.run(threadId, work);
  }

  async saveThreadState(threadId: string, values: GraphState, status: ThreadStatus) {
    const thread = this.threads.get(threadId);
    if (!thread) return;
    thread.values = copy(values);
    thread.status = status;
    thread.checkpoint_id = randomUUID();
    thread.updated_at = now();
  }

  async setThreadStatus(threadId: string, status: ThreadStatus) {
    const thread = this.threads.get(threadId);
    if (!thread) return;
    thread.status = status;
    thread.updated_at = now();
  }
}
