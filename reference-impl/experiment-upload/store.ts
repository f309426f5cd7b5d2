// The experiment-upload store: one interface, two backends (memory.ts, postgres.ts) that behave the same.
// Everything a request changes happens inside one `transaction`, so a refused request stores
// nothing; transactions of one tenant run one at a time, so check-then-write is safe.
import type { PoolClient } from '../db.ts';
import type { DatasetCounts, DatasetRow, ExampleRow, RunRow, SessionRow } from './records.ts';

export interface DatasetWithCounts {
  row: DatasetRow;
  counts: DatasetCounts;
}

export interface Page {
  limit: number;
  offset: number;
}

export interface DatasetFilter extends Page {
  name?: string;
}

export interface SessionFilter extends Page {
  name?: string;
  referenceDatasetId?: string;
  /** True: only tracing projects; false: only experiments; absent: both. */
  referenceFree?: boolean;
}

/**
 * Reads and writes of one transaction. Reads see the committed state: do every read and check
 * first, then the writes (the memory backend applies writes at commit).
 */
export interface UploadTx {
  datasetById(id: string): Promise<DatasetRow | undefined>;
  datasetByName(name: string): Promise<DatasetRow | undefined>;
  sessionById(id: string): Promise<SessionRow | undefined>;
  sessionByName(name: string): Promise<SessionRow | undefined>;
  experimentCount(datasetId: string): Promise<number>;
  /** Inserts the dataset, or replaces the stored one with the same id. */
  saveDataset(row: DatasetRow): Promise<void>;
  insertSession(row: SessionRow): Promise<void>;
  /** Inserts examples; one whose id exists in the same dataset replaces it. */
  upsertExamples(rows: ExampleRow[]): Promise<void>;
  insertRuns(rows: RunRow[]): Promise<void>;
  deleteSession(id: string): Promise<void>;
  /** Deletes the dataset with its examples, experiments and their runs. */
  deleteDataset(id: string): Promise<void>;
}

export interface UploadStore {
  /** With `within` (PostgreSQL only), the work joins that open transaction instead of its own. */
  transaction<T>(tenantId: string, work: (tx: UploadTx) => Promise<T>, within?: PoolClient): Promise<T>;
  getDataset(tenantId: string, id: string): Promise<DatasetWithCounts | undefined>;
  listDatasets(tenantId: string, filter: DatasetFilter): Promise<DatasetWithCounts[]>;
  getSession(tenantId: string, id: string): Promise<SessionRow | undefined>;
  listSessions(tenantId: string, filter: SessionFilter): Promise<SessionRow[]>;
}
