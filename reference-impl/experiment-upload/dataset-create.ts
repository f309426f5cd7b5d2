// POST /api/v1/datasets: a dataset made on the platform itself. It is not externally managed,
// so the experiment upload refuses it (spec 4.3 rules 6 and 7). Names are unique per tenant.
import { randomUUID } from 'node:crypto';
import { conflict, unprocessable, type ValidationIssue } from '../http-errors.ts';
import { formatMicros, nowMicros } from './datetime.ts';
import { nameLengthIssue } from '../names.ts';
import type { DatasetRow } from './records.ts';
import type { DatasetWithCounts, UploadStore } from './store.ts';

export interface DatasetCreateInput {
  name: string;
  description: string | null;
}

/** The body's name and description, or a 422. Other fields are ignored. */
export function readDatasetCreate(body: unknown): DatasetCreateInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw unprocessable([{ loc: ['body'], msg: 'Input should be a JSON object with a "name" string', type: 'model_type' }]);
  }
  const { name, description } = body as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  if (name === undefined) issues.push({ loc: ['body', 'name'], msg: 'Field required', type: 'missing' });
  else if (typeof name !== 'string' || name.length === 0) issues.push({ loc: ['body', 'name'], msg: 'Input should be a non-empty string', type: 'string_type' });
  if (description !== undefined && description !== null && typeof description !== 'string') {
    issues.push({ loc: ['body', 'description'], msg: 'Input should be a string or null', type: 'string_type' });
  }
  issues.push(...nameLengthIssue(name, ['body', 'name']));
  if (issues.length > 0) throw unprocessable(issues);
  return { name: name as string, description: (description as string | null | undefined) ?? null };
}

export async function createDataset(store: UploadStore, tenantId: string, input: DatasetCreateInput): Promise<DatasetWithCounts> {
  const now = formatMicros(nowMicros());
  const row: DatasetRow = {
    id: randomUUID(),
    tenantId,
    name: input.name,
    description: input.description,
    externallyManaged: false,
    createdAt: now,
    modifiedAt: now,
  };
  await store.transaction(tenantId, async (tx) => {
    const existing = await tx.datasetByName(input.name);
    if (existing) throw conflict(`A dataset named "${input.name}" already exists in this workspace (dataset ${existing.id}); choose another name.`);
    await tx.saveDataset(row);
  });
  return { row, counts: { exampleCount: 0, sessionCount: 0, lastSessionStart: null } };
}
