// PostgreSQL tracing store. Tables carry a `tracing_` prefix and are created on open. Writes of a
// request run in one transaction that first takes a per-tenant advisory lock, so concurrent
// uploads (from this process or another one on the same database) see each other's datasets
// and session names. Microsecond times are BIGINT columns; API-shaped parts are JSONB.
import { withTransaction, type Pool, type PoolClient } from '../db.ts';
import type { DatasetRow, JsonObject, SessionRow, SessionStats, FeedbackRecord } from './records.ts';
import type { DatasetFilter, DatasetWithCounts, SessionFilter, UploadStore, UploadTx } from './store.ts';

/** First key of the two-key advisory lock: The experiment-upload store's namespace ('TRAC'). */
const LOCK_NAMESPACE = 0x54524143;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tracing_datasets (
  seq BIGSERIAL,
  tenant_id TEXT NOT NULL,
  id UUID NOT NULL,
  name TEXT NOT NULL,
  description TEXT,
  externally_managed BOOLEAN NOT NULL,
  created_at TEXT NOT NULL,
  modified_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX IF NOT EXISTS tracing_datasets_name ON tracing_datasets (tenant_id, name);
CREATE TABLE IF NOT EXISTS tracing_sessions (
  seq BIGSERIAL,
  tenant_id TEXT NOT NULL,
  id UUID NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT,
  start_us BIGINT NOT NULL,
  end_us BIGINT,
  extra JSONB,
  reference_dataset_id UUID,
  test_run_number INTEGER,
  session_feedback JSONB NOT NULL,
  stats JSONB NOT NULL,
  stats_due_at_ms BIGINT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, name)
);
CREATE INDEX IF NOT EXISTS tracing_sessions_dataset ON tracing_sessions (tenant_id, reference_dataset_id);
CREATE TABLE IF NOT EXISTS tracing_examples (
  tenant_id TEXT NOT NULL,
  dataset_id UUID NOT NULL,
  id UUID NOT NULL,
  inputs JSONB NOT NULL,
  outputs JSONB,
  created_at TEXT NOT NULL,
  modified_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, dataset_id, id)
);
CREATE TABLE IF NOT EXISTS tracing_runs (
  seq BIGSERIAL,
  tenant_id TEXT NOT NULL,
  session_id UUID NOT NULL,
  id UUID NOT NULL,
  example_id UUID NOT NULL,
  name TEXT,
  inputs JSONB NOT NULL,
  outputs JSONB,
  error TEXT,
  start_us BIGINT NOT NULL,
  end_us BIGINT NOT NULL,
  metadata JSONB,
  feedback JSONB NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX IF NOT EXISTS tracing_runs_session ON tracing_runs (tenant_id, session_id);
`;

type Queryable = Pick<PoolClient, 'query'>;

interface DatasetDbRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  externally_managed: boolean;
  created_at: string;
  modified_at: string;
}

interface SessionDbRow {
  id: string;
  tenant_id: string;
  kind: 'experiment' | 'project';
  name: string;
  description: string | null;
  start_us: string;
  end_us: string | null;
  extra: JsonObject | null;
  reference_dataset_id: string | null;
  test_run_number: number | null;
  session_feedback: FeedbackRecord[];
  stats: SessionStats;
  stats_due_at_ms: string;
  created_at: string;
}

const toDataset = (r: DatasetDbRow): DatasetRow => ({
  id: r.id,
  tenantId: r.tenant_id,
  name: r.name,
  description: r.description,
  externallyManaged: r.externally_managed,
  createdAt: r.created_at,
  modifiedAt: r.modified_at,
});

const toSession = (r: SessionDbRow): SessionRow => ({
  id: r.id,
  tenantId: r.tenant_id,
  kind: r.kind,
  name: r.name,
  description: r.description,
  start: BigInt(r.start_us),
  end: r.end_us === null ? null : BigInt(r.end_us),
  extra: r.extra,
  referenceDatasetId: r.reference_dataset_id,
  testRunNumber: r.test_run_number,
  sessionFeedback: r.session_feedback,
  stats: r.stats,
  statsDueAtMs: Number(r.stats_due_at_ms),
  createdAt: r.created_at,
});

/** JSONB parameters go as text: node-postgres would send a JS array as a PostgreSQL array. */
const json = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

const DATASET_COUNTS = `
  (SELECT count(*) FROM tracing_examples e WHERE e.tenant_id = d.tenant_id AND e.dataset_id = d.id)::int AS example_count,
  (SELECT count(*) FROM tracing_sessions s WHERE s.tenant_id = d.tenant_id AND s.reference_dataset_id = d.id)::int AS session_count,
  (SELECT max(s.start_us) FROM tracing_sessions s WHERE s.tenant_id = d.tenant_id AND s.reference_dataset_id = d.id) AS last_session_start_us`;

const withCounts = (r: DatasetDbRow & { example_count: number; session_count: number; last_session_start_us: string | null }): DatasetWithCounts => ({
  row: toDataset(r),
  counts: {
    exampleCount: r.example_count,
    sessionCount: r.session_count,
    lastSessionStart: r.last_session_start_us === null ? null : BigInt(r.last_session_start_us),
  },
});

/** Rows per INSERT statement: few round trips, far below PostgreSQL's 65535 parameters. */
const INSERT_BATCH = 500;

async function insertMany(client: Queryable, insert: string, rows: unknown[][], suffix = ''): Promise<void> {
  for (let from = 0; from < rows.length; from += INSERT_BATCH) {
    const batch = rows.slice(from, from + INSERT_BATCH);
    const width = batch[0]!.length;
    const values = batch.map((_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`);
    await client.query(`${insert} VALUES ${values.join(', ')} ${suffix}`, batch.flat());
  }
}

function openTx(client: Queryable, tenantId: string): UploadTx {
  const one = async <R>(sql: string, params: unknown[]): Promise<R | undefined> => (await client.query(sql, params)).rows[0] as R | undefined;
  return {
    async datasetById(id) {
      const r = await one<DatasetDbRow>('SELECT * FROM tracing_datasets WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
      return r && toDataset(r);
    },
    async datasetByName(name) {
      const r = await one<DatasetDbRow>('SELECT * FROM tracing_datasets WHERE tenant_id = $1 AND name = $2 ORDER BY seq LIMIT 1', [tenantId, name]);
      return r && toDataset(r);
    },
    async sessionById(id) {
      const r = await one<SessionDbRow>('SELECT * FROM tracing_sessions WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
      return r && toSession(r);
    },
    async sessionByName(name) {
      const r = await one<SessionDbRow>('SELECT * FROM tracing_sessions WHERE tenant_id = $1 AND name = $2', [tenantId, name]);
      return r && toSession(r);
    },
    async experimentCount(datasetId) {
      const r = await one<{ n: number }>('SELECT count(*)::int AS n FROM tracing_sessions WHERE tenant_id = $1 AND reference_dataset_id = $2', [tenantId, datasetId]);
      return r?.n ?? 0;
    },
    async saveDataset(row) {
      await client.query(
        `INSERT INTO tracing_datasets (tenant_id, id, name, description, externally_managed, created_at, modified_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (tenant_id, id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description,
           externally_managed = EXCLUDED.externally_managed, modified_at = EXCLUDED.modified_at`,
        [tenantId, row.id, row.name, row.description, row.externallyManaged, row.createdAt, row.modifiedAt],
      );
    },
    async insertSession(row) {
      await client.query(
        `INSERT INTO tracing_sessions (tenant_id, id, kind, name, description, start_us, end_us, extra, reference_dataset_id,
           test_run_number, session_feedback, stats, stats_due_at_ms, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          tenantId, row.id, row.kind, row.name, row.description, row.start.toString(), row.end?.toString() ?? null, json(row.extra),
          row.referenceDatasetId, row.testRunNumber, json(row.sessionFeedback), json(row.stats), row.statsDueAtMs, row.createdAt,
        ],
      );
    },
    async upsertExamples(rows) {
      // One statement may not update a row twice: of a repeated id, the last row wins (as in memory).
      const latest = [...new Map(rows.map((row) => [row.id, row])).values()];
      await insertMany(
        client,
        'INSERT INTO tracing_examples (tenant_id, dataset_id, id, inputs, outputs, created_at, modified_at)',
        latest.map((row) => [tenantId, row.datasetId, row.id, json(row.inputs), json(row.outputs), row.createdAt, row.modifiedAt]),
        `ON CONFLICT (tenant_id, dataset_id, id) DO UPDATE SET inputs = EXCLUDED.inputs, outputs = EXCLUDED.outputs,
           modified_at = EXCLUDED.modified_at`,
      );
    },
    async insertRuns(rows) {
      await insertMany(
        client,
        'INSERT INTO tracing_runs (tenant_id, session_id, id, example_id, name, inputs, outputs, error, start_us, end_us, metadata, feedback)',
        rows.map((row) => [
          tenantId, row.sessionId, row.id, row.exampleId, row.name, json(row.inputs), json(row.outputs), row.error,
          row.start.toString(), row.end.toString(), json(row.metadata), json(row.feedback),
        ]),
      );
    },
    async deleteSession(id) {
      await client.query('DELETE FROM tracing_runs WHERE tenant_id = $1 AND session_id = $2', [tenantId, id]);
      await client.query('DELETE FROM tracing_sessions WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
    },
    async deleteDataset(id) {
      await client.query(
        `DELETE FROM tracing_runs WHERE tenant_id = $1 AND session_id IN
           (SELECT id FROM tracing_sessions WHERE tenant_id = $1 AND reference_dataset_id = $2)`,
        [tenantId, id],
      );
      await client.query('DELETE FROM tracing_sessions WHERE tenant_id = $1 AND reference_dataset_id = $2', [tenantId, id]);
      await client.query('DELETE FROM tracing_examples WHERE tenant_id = $1 AND dataset_id = $2', [tenantId, id]);
      await client.query('DELETE FROM tracing_datasets WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
    },
  };
}

export async function postgresStore(pool: Pool): Promise<UploadStore> {
  // Two listeners opening the same fresh database at once must not race on CREATE TABLE.
  await withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK_NAMESPACE]);
    await client.query(SCHEMA);
  });
  return {
    transaction: (tenantId, work, within) => {
      const locked = async (client: PoolClient) => {
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_NAMESPACE, tenantId]);
        return work(openTx(client, tenantId));
      };
      return within ? locked(within) : withTransaction(pool, locked);
    },
    async getDataset(tenantId, id) {
      const { rows } = await pool.query(`SELECT d.*, ${DATASET_COUNTS} FROM tracing_datasets d WHERE d.tenant_id = $1 AND d.id = $2`, [tenantId, id]);
      return rows[0] && withCounts(rows[0]);
    },
    async listDatasets(tenantId, filter: DatasetFilter) {
      const { rows } = await pool.query(
        `SELECT d.*, ${DATASET_COUNTS} FROM tracing_datasets d
         WHERE d.tenant_id = $1 AND ($2::text IS NULL OR d.name = $2) ORDER BY d.seq DESC LIMIT $3 OFFSET $4`,
        [tenantId, filter.name ?? null, filter.limit, filter.offset],
      );
      return rows.map(withCounts);
    },
    async getSession(tenantId, id) {
      const { rows } = await pool.query('SELECT * FROM tracing_sessions WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
      return rows[0] && toSession(rows[0]);
    },
    async listSessions(tenantId, filter: SessionFilter) {
      const { rows } = await pool.query(
        `SELECT * FROM tracing_sessions
         WHERE tenant_id = $1 AND ($2::text IS NULL OR name = $2) AND ($3::uuid IS NULL OR reference_dataset_id = $3)
           AND ($4::boolean IS NULL OR (reference_dataset_id IS NULL) = $4)
         ORDER BY seq DESC LIMIT $5 OFFSET $6`,
        [tenantId, filter.name ?? null, filter.referenceDatasetId ?? null, filter.referenceFree ?? null, filter.limit, filter.offset],
      );
      return rows.map(toSession);
    },
  };
}
