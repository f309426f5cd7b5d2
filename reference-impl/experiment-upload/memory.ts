// In-memory experiment-upload store (the default). Transactions run one at a time; their writes are queued
// and applied together at commit, so a transaction that throws leaves nothing behind.
import type { DatasetRow, ExampleRow, RunRow, SessionRow } from './records.ts';
import type { DatasetFilter, DatasetWithCounts, SessionFilter, UploadStore, UploadTx } from './store.ts';

interface TenantData {
  /** Maps keep insertion order; listings return the newest first. */
  datasets: Map<string, DatasetRow>;
  sessions: Map<string, SessionRow>;
  /** Keyed by dataset id, then example id. */
  examples: Map<string, Map<string, ExampleRow>>;
  /** Keyed by session id. */
  runs: Map<string, RunRow[]>;
  /** Name lookups without a scan: an upload looks its dataset and experiment up by name. */
  datasetNames: NameIndex;
  sessionNames: NameIndex;
}

/** Row ids by name, in the order they were stored: the first is what a scan would find. */
class NameIndex {
  private readonly ids = new Map<string, string[]>();

  get(name: string): string | undefined {
    return this.ids.get(name)?.[0];
  }

  added(row: { id: string; name: string }): void {
    const ids = this.ids.get(row.name);
    if (!ids) this.ids.set(row.name, [row.id]);
    else if (!ids.includes(row.id)) ids.push(row.id);
  }

  removed(row: { id: string; name: string }): void {
    const ids = this.ids.get(row.name)?.filter((id) => id !== row.id);
    if (ids && ids.length > 0) this.ids.set(row.name, ids);
    else this.ids.delete(row.name);
  }
}

/** A dataset with what its listing shows of its examples and experiments. */
function withCounts(d: TenantData, row: DatasetRow): DatasetWithCounts {
  const experiments = [...d.sessions.values()].filter((s) => s.referenceDatasetId === row.id);
  return {
    row,
    counts: {
      exampleCount: d.examples.get(row.id)?.size ?? 0,
      sessionCount: experiments.length,
      lastSessionStart: experiments.reduce<bigint | null>((max, s) => (max === null || s.start > max ? s.start : max), null),
    },
  };
}

/** A page of a listing, newest first. */
function page<T>(items: T[], filter: { limit: number; offset: number }): T[] {
  return items.reverse().slice(filter.offset, filter.offset + filter.limit);
}

/** A transaction on one tenant's data: it reads at once, and queues its writes in `writes` for the commit. */
function openTx(d: TenantData, writes: (() => void)[]): UploadTx {
  return {
    datasetById: async (id) => d.datasets.get(id),
    datasetByName: async (name) => d.datasets.get(d.datasetNames.get(name) ?? ''),
    sessionById: async (id) => d.sessions.get(id),
    sessionByName: async (name) => d.sessions.get(d.sessionNames.get(name) ?? ''),
    experimentCount: async (datasetId) => [...d.sessions.values()].filter((s) => s.referenceDatasetId === datasetId).length,
    saveDataset: async (row) =>
      void writes.push(() => {
        const before = d.datasets.get(row.id);
        if (before && before.name !== row.name) d.datasetNames.removed(before);
        d.datasets.set(row.id, row);
        d.datasetNames.added(row);
      }),
    insertSession: async (row) =>
      void writes.push(() => {
        d.sessions.set(row.id, row);
        d.sessionNames.added(row);
      }),
    upsertExamples: async (rows) =>
      void writes.push(() => {
        for (const row of rows) {
          const examples = d.examples.get(row.datasetId) ?? new Map<string, ExampleRow>();
          const created = examples.get(row.id)?.createdAt ?? row.createdAt;
          examples.set(row.id, { ...row, createdAt: created });
          d.examples.set(row.datasetId, examples);
        }
      }),
    insertRuns: async (rows) =>
      void writes.push(() => {
        for (const row of rows) {
          const runs = d.runs.get(row.sessionId);
          if (runs) runs.push(row);
          else d.runs.set(row.sessionId, [row]);
        }
      }),
    deleteSession: async (id) =>
      void writes.push(() => {
        const session = d.sessions.get(id);
        d.sessions.delete(id);
        d.runs.delete(id);
        if (session) d.sessionNames.removed(session);
      }),
    deleteDataset: async (id) =>
      void writes.push(() => {
        for (const s of [...d.sessions.values()]) {
          if (s.referenceDatasetId !== id) continue;
          d.sessions.delete(s.id);
          d.runs.delete(s.id);
          d.sessionNames.removed(s);
        }
        const dataset = d.datasets.get(id);
        d.examples.delete(id);
        d.datasets.delete(id);
        if (dataset) d.datasetNames.removed(dataset);
      }),
  };
}

export function memoryStore(): UploadStore {
  const tenants = new Map<string, TenantData>();
  let queue: Promise<unknown> = Promise.resolve();

  const data = (tenantId: string): TenantData => {
    let found = tenants.get(tenantId);
    if (!found) {
      found = { datasets: new Map(), sessions: new Map(), examples: new Map(), runs: new Map(), datasetNames: new NameIndex(), sessionNames: new NameIndex() };
      tenants.set(tenantId, found);
    }
    return found;
  };

  return {
    transaction<T>(tenantId: string, work: (tx: UploadTx) => Promise<T>): Promise<T> {
      const run = queue.then(async () => {
        const d = data(tenantId);
        const writes: (() => void)[] = [];
        const result = await work(openTx(d, writes));
        for (const write of writes) write();
        return result;
      });
      queue = run.catch(() => undefined);
      return run;
    },
    async getDataset(tenantId, id) {
      const d = data(tenantId);
      const row = d.datasets.get(id);
      return row && withCounts(d, row);
    },
    async listDatasets(tenantId, filter: DatasetFilter) {
      const d = data(tenantId);
      const rows = [...d.datasets.values()].filter((row) => filter.name === undefined || row.name === filter.name);
      return page(rows, filter).map((row) => withCounts(d, row));
    },
    async getSession(tenantId, id) {
      return data(tenantId).sessions.get(id);
    },
    async listSessions(tenantId, filter: SessionFilter) {
      const rows = [...data(tenantId).sessions.values()].filter(
        (s) =>
          (filter.name === undefined || s.name === filter.name) &&
          (filter.referenceDatasetId === undefined || s.referenceDatasetId === filter.referenceDatasetId) &&
          (filter.referenceFree === undefined || (s.referenceDatasetId === null) === filter.referenceFree),
      );
      return page(rows, filter);
    },
  };
}
