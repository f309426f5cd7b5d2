// The PostgreSQL backend: the same behaviour as the memory store, surviving restarts. Tables
// are created on open; `seq` orders records newest first even within one millisecond.
import { randomUUID } from 'node:crypto';
import { withTransaction, type Pool, type PoolClient } from '../db.ts';
import type { GraphState } from './graph.ts';
import { KeyedLock } from './keyed-lock.ts';
import { failRunsOfGoneProcesses, THREAD_LOCK_NAMESPACE } from './postgres-run-recovery.ts';
import type { AgentStore, AssistantConfig, AssistantQuery, AssistantRecord, AssistantVersion, Page, ThreadRecord, ThreadStatus } from './store.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS agent_assistants (
  assistant_id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  active_version integer NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS agent_assistant_versions (
  assistant_id uuid NOT NULL REFERENCES agent_assistants ON DELETE CASCADE,
  version integer NOT NULL,
  graph_id text NOT NULL,
  name text NOT NULL,
  description text,
  context jsonb NOT NULL,
  metadata jsonb NOT NULL,
  config jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (assistant_id, version)
);
CREATE TABLE IF NOT EXISTS agent_threads (
  thread_id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  metadata jsonb NOT NULL,
  status text NOT NULL,
  state jsonb,
  checkpoint_id uuid
);`;

/** Serializes concurrent schema creation by several servers opening one database. */
const SCHEMA_LOCK = 'SELECT pg_advisory_xact_lock(hashtext($1))';

const ACTIVE_ASSISTANT = `
SELECT a.assistant_id, a.created_at, a.updated_at, v.version, v.graph_id, v.name, v.description, v.context, v.metadata, v.config
FROM agent_assistants a JOIN agent_assistant_versions v ON v.assistant_id = a.assistant_id AND v.version = a.active_version`;

type Row = Record<string, unknown>;

const iso = (value: unknown) => (value as Date).toISOString();
const json = (value: unknown) => JSON.stringify(value);

function toVersion(row: Row): AssistantVersion {
  return {
    assistant_id: row.assistant_id as string,
    graph_id: row.graph_id as string,
    name: row.name as string,
    description: (row.description as string | null) ?? null,
    context: row.context as Record<string, unknown>,
    metadata: row.metadata as Record<string, unknown>,
    config: row.config as Record<string, unknown>,
    version: row.version as number,
    created_at: iso(row.created_at),
  };
}

/** The assistant row is its active version's row plus updated_at. */
function toAssistant(row: Row): AssistantRecord {
  return { ...toVersion(row), updated_at: iso(row.updated_at) };
}

function toThread(row: Row): ThreadRecord {
  return {
    thread_id: row.thread_id as string,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    metadata: row.metadata as Record<string, unknown>,
    status: row.status as ThreadStatus,
    values: (row.state as GraphState | null) ?? null,
    checkpoint_id: (row.checkpoint_id as string | null) ?? null,
  };
}

async function insertVersion(client: PoolClient, assistantId: string, version: number, config: AssistantConfig, at: string): Promise<void> {
  await client.query(
    `INSERT INTO agent_assistant_versions (assistant_id, version, graph_id, name, description, context, metadata, config, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [assistantId, version, config.graph_id, config.name, config.description, json(config.context), json(config.metadata), json(config.config), at],
  );
}

export class PostgresStore implements AgentStore {
  readonly kind = 'postgres';

  private readonly threadLocks = new KeyedLock();

  private constructor(private readonly pool: Pool) {}

  static async open(pool: Pool): Promise<PostgresStore> {
    await withTransaction(pool, async (client) => {
      await client.query(SCHEMA_LOCK, ['agent_server_schema']);
      await client.query(SCHEMA);
    });
    // Before serving: fail the runs a crashed process left in flight (postgres-run-recovery.ts).
    await failRunsOfGoneProcesses(pool);
    return new PostgresStore(pool);
  }

  private async activeAssistant(client: Pool | PoolClient, assistantId: string): Promise<AssistantRecord | undefined> {
    const { rows } = await client.query(`${ACTIVE_ASSISTANT} WHERE a.assistant_id = $1`, [assistantId]);
    return rows[0] && toAssistant(rows[0]);
  }

  async createAssistant(assistantId: string, config: AssistantConfig) {
    return withTransaction(this.pool, async (client) => {
      const at = new Date().toISOString();
      const inserted = await client.query(
        `INSERT INTO agent_assistants (assistant_id, active_version, created_at, updated_at) VALUES ($1, 1, $2, $2)
         ON CONFLICT (assistant_id) DO NOTHING`,
        [assistantId, at],
      );
      const created = inserted.rowCount === 1;
      if (created) await insertVersion(client, assistantId, 1, config, at);
      return { assistant: (await this.activeAssistant(client, assistantId))!, created };
    });
  }

  async getAssistant(assistantId: string) {
    return this.activeAssistant(this.pool, assistantId);
  }

  async addVersion(assistantId: string, config: AssistantConfig) {
    return withTransaction(this.pool, async (client) => {
      const locked = await client.query('SELECT 1 FROM agent_assistants WHERE assistant_id = $1 FOR UPDATE', [assistantId]);
      if (locked.rowCount === 0) return undefined;
      const { rows } = await client.query('SELECT max(version) AS latest FROM agent_assistant_versions WHERE assistant_id = $1', [assistantId]);
      const version = Number(rows[0]?.latest ?? 0) + 1;
      const at = new Date().toISOString();
      await insertVersion(client, assistantId, version, config, at);
      await client.query('UPDATE agent_assistants SET active_version = $2, updated_at = $3 WHERE assistant_id = $1', [assistantId, version, at]);
      return this.activeAssistant(client, assistantId);
    });
  }

  async setActiveVersion(assistantId: string, version: number) {
    return withTransaction(this.pool, async (client) => {
      const locked = await client.query('SELECT 1 FROM agent_assistants WHERE assistant_id = $1 FOR UPDATE', [assistantId]);
      if (locked.rowCount === 0) return 'no-assistant' as const;
      const exists = await client.query('SELECT 1 FROM agent_assistant_versions WHERE assistant_id = $1 AND version = $2', [assistantId, version]);
      if (exists.rowCount === 0) return 'no-version' as const;
      await client.query('UPDATE agent_assistants SET active_version = $2, updated_at = $3 WHERE assistant_id = $1', [assistantId, version, new Date().toISOString()]);
      return (await this.activeAssistant(client, assistantId))!;
    });
  }

  async deleteAssistant(assistantId: string) {
    const { rowCount } = await this.pool.query('DELETE FROM agent_assistants WHERE assistant_id = $1', [assistantId]);
    return rowCount === 1;
  }

  async listVersions(assistantId: string, query: Page & { metadata?: Record<string, unknown> }) {
    const exists = await this.pool.query('SELECT 1 FROM agent_assistants WHERE assistant_id = $1', [assistantId]);
    if (exists.rowCount === 0) return undefined;
    const { rows } = await this.pool.query(
      `SELECT * FROM agent_assistant_versions WHERE assistant_id = $1 AND ($2::jsonb IS NULL OR metadata @> $2::jsonb)
       ORDER BY version DESC LIMIT $3 OFFSET $4`,
      [assistantId, query.metadata ? json(query.metadata) : null, query.limit, query.offset],
    );
    return rows.map(toVersion);
  }

  async searchAssistants(query: AssistantQuery) {
    const { rows } = await this.pool.query(
      `${ACTIVE_ASSISTANT} WHERE ($1::jsonb IS NULL OR v.metadata @> $1::jsonb) AND ($2::text IS NULL OR v.graph_id = $2)
       ORDER BY a.seq DESC LIMIT $3 OFFSET $4`,
      [query.metadata ? json(query.metadata) : null, query.graph_id ?? null, query.limit, query.offset],
    );
    return rows.map(toAssistant);
  }

  async createThread(threadId: string, metadata: Record<string, unknown>) {
    const at = new Date().toISOString();
    const inserted = await this.pool.query(
      `INSERT INTO agent_threads (thread_id, created_at, updated_at, metadata, status) VALUES ($1, $2, $2, $3, 'idle')
       ON CONFLICT (thread_id) DO NOTHING`,
      [threadId, at, json(metadata)],
    );
    return { thread: (await this.getThread(threadId))!, created: inserted.rowCount === 1 };
  }

  async getThread(threadId: string) {
    const { rows } = await this.pool.query('SELECT * FROM agent_threads WHERE thread_id = $1', [threadId]);
    return rows[0] && toThread(rows[0]);
  }

  async searchThreads(query: Page & { metadata?: Record<string, unknown> }) {
    const { rows } = await this.pool.query(
      'SELECT * FROM agent_threads WHERE ($1::jsonb IS NULL OR metadata @> $1::jsonb) ORDER BY seq DESC LIMIT $2 OFFSET $3',
      [query.metadata ? json(query.metadata) : null, query.limit, query.offset],
    );
    return rows.map(toThread);
  }

  async deleteThread(threadId: string) {
    const { rowCount } = await this.pool.query('DELETE FROM agent_threads WHERE thread_id = $1', [threadId]);
    return rowCount === 1;
  }

  async withThreadLock<T>(threadId: string, work: () => Promise<T>): Promise<T> {
    // Runs of this process queue here first, so waiting never takes more than one connection;
    // the advisory lock then orders them with the runs of other processes.
    return this.threadLocks.run(threadId, async () => {
      const client = await this.pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [THREAD_LOCK_NAMESPACE, threadId]);
        try {
          return await work();
        } finally {
          await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [THREAD_LOCK_NAMESPACE, threadId]);
        }
      } finally {
        client.release();
      }
    });
  }

  async saveThreadState(threadId: string, values: GraphState, status: ThreadStatus) {
    await this.pool.query('UPDATE agent_threads SET state = $2, status = $3, checkpoint_id = $4, updated_at = $5 WHERE thread_id = $1', [
      threadId,
      json(values),
      status,
      randomUUID(),
      new Date().toISOString(),
    ]);
  }

  async setThreadStatus(threadId: string, status: ThreadStatus) {
    await this.pool.query('UPDATE agent_threads SET status = $2, updated_at = $3 WHERE thread_id = $1', [threadId, status, new Date().toISOString()]);
  }
}
