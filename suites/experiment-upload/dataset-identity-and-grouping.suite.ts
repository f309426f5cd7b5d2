// Dataset identity and grouping (spec 4.3 rules 1-3): a dataset is named by id, by name or by
// both; a missing name or id is generated; repeating the naming groups experiments under one
// dataset, and different namings give different datasets.
import fc from 'fast-check';
import { validUpload, type DatasetNaming } from '../../generators/experiment-upload/upload.ts';
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { bodyOf, freshIds, uploadOk, uploadRefused, type JsonObject } from './support/upload.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

requirement('EU-DS-001', async (t: Check) => {
  await t.property(
    validUpload(),
    async (c) => {
      const body: JsonObject = bodyOf(t, c);
      delete body.dataset_id;
      delete body.dataset_name;
      await uploadRefused(t, body, 'EU-DS-001', 'An upload with neither dataset_id nor dataset_name');
    },
    { numRuns: Math.min(t.profile.runs, 5), sideBySide: true },
  );
});

requirement('EU-DS-002', async (t: Check) => {
  const [c] = fc.sample(validUpload({ naming: 'id' }), { numRuns: 1, seed: t.testSeed });
  const { dataset } = await uploadOk(t, bodyOf(t, c!), 'EU-DS-002', 'An upload naming its dataset by an unknown dataset_id only');
  t.expect(typeof dataset.name === 'string' && dataset.name.length > 0, { message: 'The dataset of an upload giving only dataset_id has no generated name.', expected: 'a non-empty dataset name', seen: dataset });
}, { cost: { creates: { uploads: 1 } } });

requirement('EU-DS-003', async (t: Check) => {
  const [c] = fc.sample(validUpload({ naming: 'name' }), { numRuns: 1, seed: t.testSeed });
  const ids = freshIds(t, c!.rows.length);
  const { dataset } = await uploadOk(t, bodyOf(t, c!, ids), 'EU-DS-003', 'An upload naming its dataset by dataset_name only');
  t.expect(dataset.name === ids.datasetName, { message: 'The dataset does not carry the dataset_name uploaded.', expected: ids.datasetName, seen: dataset.name });
  t.expect(typeof dataset.id === 'string' && UUID.test(dataset.id), { message: 'The dataset of an upload giving only dataset_name has no generated id.', expected: 'a uuid', seen: dataset.id });
}, { cost: { creates: { uploads: 1 } } });

async function datasetIdOf(t: Check, naming: DatasetNaming, shared: Parameters<typeof bodyOf>[2], rule: string): Promise<unknown> {
  const [c] = fc.sample(validUpload({ naming: naming as Exclude<DatasetNaming, 'none'> }), { numRuns: 1, seed: t.testSeed });
  const { dataset } = await uploadOk(t, bodyOf(t, c!, shared), rule, `An upload naming its dataset by ${naming}`);
  return dataset.id;
}

requirement('EU-DS-004', async (t: Check) => {
  for (const naming of ['id', 'name', 'both'] as const) {
    const { datasetId, datasetName } = freshIds(t);
    const first = await datasetIdOf(t, naming, { datasetId, datasetName }, 'EU-DS-004');
    const second = await datasetIdOf(t, naming, { datasetId, datasetName }, 'EU-DS-004');
    t.expect(first === second, {
      message: `Two uploads naming the same dataset by ${naming} landed in different datasets.`,
      expected: `both experiments in dataset ${String(first)}`,
      seen: `datasets ${String(first)} and ${String(second)}`,
    });
  }
}, { cost: { creates: { uploads: 6 } } });

requirement('EU-DS-005', async (t: Check) => {
  for (const naming of ['id', 'name'] as const) {
    const first = await datasetIdOf(t, naming, {}, 'EU-DS-005');
    const second = await datasetIdOf(t, naming, {}, 'EU-DS-005');
    t.expect(first !== second, {
      message: `Two uploads naming different datasets by ${naming} landed in one dataset.`,
      expected: 'two datasets',
      seen: `dataset ${String(first)} twice`,
    });
  }
}, { cost: { creates: { uploads: 4 } } });
