// Stores a checked experiment upload (spec 4.3) in one transaction: finds or creates the
// externally managed dataset, refuses a session name already used in the tenant, then writes
// the examples, the experiment session and its runs. Statistics are computed now and shown once
// `statsDelayMs` has passed (see views.ts), which survives restarts and works across processes.
import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../http-errors.ts';
import { formatMicros, nowMicros } from './datetime.ts';
import type { FaultCheck } from './faults.ts';
import type { DatasetRow, RunRow, SessionRow } from './records.ts';
import { sessionStats } from './statistics.ts';
import type { DatasetWithCounts, UploadStore, UploadTx } from './store.ts';
import type { UploadInput } from './upload-request.ts';

export interface UploadResult {
  dataset: DatasetWithCounts;
  experiment: SessionRow;
}

export function refuseInternal(row: DatasetRow, faults: FaultCheck): void {
  // FAULT eu.internal-dataset-accepted: uploads into a dataset made by POST /api/v1/datasets.
  if (row.externallyManaged || faults('eu.internal-dataset-accepted')) return;
  throw badRequest(
    `Dataset ${row.id} ("${row.name}") was not created by the experiment upload, so it is not externally managed and ` +
      'cannot receive uploads. Send a dataset_id or dataset_name of your own system that names no dataset created here.',
  );
}

/** A name for a dataset created from an id alone, unused in the tenant. */
async function generatedName(tx: UploadTx, id: string): Promise<string> {
  for (let n = 1; ; n += 1) {
    const name = n === 1 ? `dataset-${id}` : `dataset-${id}-${n}`;
    if (!(await tx.datasetByName(name))) return name;
  }
}

/**
 * The dataset an upload goes to. An existing dataset_id wins (a differing dataset_name is ignored);
 * an unknown dataset_id with a dataset_name already used by another dataset is a 409.
 */
async function targetDataset(tx: UploadTx, tenantId: string, input: UploadInput, faults: FaultCheck, now: string): Promise<DatasetRow> {
  const fresh = async (id: string, name: string | null): Promise<DatasetRow> => ({
    id,
    tenantId,
    name: name ?? (await generatedName(tx, id)),
    description: input.datasetDescription,
    externallyManaged: true,
    createdAt: now,
    modifiedAt: now,
  });
  // FAULT eu.no-grouping: every upload makes a new dataset, even for a known id or name.
  if (faults('eu.no-grouping')) return fresh(randomUUID(), input.datasetName);
  const byId = input.datasetId === null ? undefined : await tx.datasetById(input.datasetId);
  if (byId) {
    refuseInternal(byId, faults);
    return byId;
  }
  const byName = input.datasetName === null ? undefined : await tx.datasetByName(input.datasetName);
  if (byName) {
    refuseInternal(byName, faults);
    if (input.datasetId === null) return byName;
    throw conflict(
      `dataset_name "${byName.name}" belongs to dataset ${byName.id}, but dataset_id ${input.datasetId} was sent. ` +
        'Send that dataset id, or a dataset_name not used yet.',
    );
  }
  return fresh(input.datasetId ?? randomUUID(), input.datasetName);
}

export async function storeUpload(
  store: UploadStore,
  tenantId: string,
  input: UploadInput,
  options: { faults: FaultCheck; statsDelayMs: number },
): Promise<UploadResult> {
  const now = formatMicros(nowMicros());
  const { experiment, datasetId } = await store.transaction(tenantId, async (tx) => {
    const dataset = await targetDataset(tx, tenantId, input, options.faults, now);
    if (await tx.sessionByName(input.experimentName)) throw conflict('Session already exists.');
    const sessionId = randomUUID();
    const runs: RunRow[] = input.rows.map((row) => ({
      id: randomUUID(),
      sessionId,
      exampleId: row.rowId,
      name: row.runName,
      inputs: row.inputs,
      outputs: row.actualOutputs,
      error: row.error,
      start: row.start,
      end: row.end,
      metadata: row.runMetadata,
      feedback: row.scores,
    }));
    const session: SessionRow = {
      id: sessionId,
      tenantId,
      kind: 'experiment',
      name: input.experimentName,
      description: input.experimentDescription,
      start: input.start,
      end: input.end,
      extra: { metadata: input.metadata ?? {} },
      referenceDatasetId: dataset.id,
      testRunNumber: (await tx.experimentCount(dataset.id)) + 1,
      sessionFeedback: input.summaryScores,
      stats: sessionStats(runs, input.summaryScores),
      // FAULT eu.stats-filled-at-upload: statistics shown at once instead of after statsDelayMs.
      statsDueAtMs: options.faults('eu.stats-filled-at-upload') ? 0 : Date.now() + options.statsDelayMs,
      createdAt: now,
    };
    await tx.saveDataset({ ...dataset, modifiedAt: now });
    await tx.upsertExamples(
      input.rows.map((row) => ({ id: row.rowId, datasetId: dataset.id, inputs: row.inputs, outputs: row.expectedOutputs, createdAt: now, modifiedAt: now })),
    );
    await tx.insertSession(session);
    await tx.insertRuns(runs);
    return { experiment: session, datasetId: dataset.id };
  });
  const dataset = await store.getDataset(tenantId, datasetId);
  if (!dataset) throw notFound(`Dataset ${datasetId} was deleted while the upload was being stored.`);
  return { dataset, experiment };
}
