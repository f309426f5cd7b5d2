// Externally managed datasets only (spec 1.C, 4.3 rules 6, 7): an upload's dataset is externally
// managed, and an upload never lands in a dataset made on the platform. Platform datasets are
// made with POST /api/v1/datasets (profile endpoint `dataset-create`, body {name}).
import fc from 'fast-check';
import { validUpload } from '../../generators/experiment-upload/upload.ts';
import { requirement, type Check, describeResponse } from '../../harness/conformance/index.ts';
import { bodyOf, upload, uploadOk, type JsonObject } from './support/upload.ts';

requirement('EU-RESP-002', async (t: Check) => {
  for (const naming of ['id', 'name', 'both'] as const) {
    const [c] = fc.sample(validUpload({ naming }), { numRuns: 1, seed: t.testSeed });
    const { dataset } = await uploadOk(t, bodyOf(t, c!));
    t.expect(dataset.externally_managed === true, { message: `The dataset of an upload naming it by ${naming} is not externally managed.`, expected: 'externally_managed: true', seen: dataset });
  }
}, { cost: { creates: { uploads: 3 } } });

requirement('EU-DS-006', async (t: Check) => {
  const name = t.name('platform-dataset');
  const created = await t.eu.post('/api/v1/datasets', { name, description: 'made on the platform by the conformance harness' });
  const platform = created.response?.json as JsonObject | undefined;
  const status = created.response?.status ?? 0;
  if (status < 200 || status >= 300 || typeof platform?.id !== 'string') {
    t.skip(`making a platform dataset (POST /api/v1/datasets, profile endpoint dataset-create) failed, so there is no platform dataset to name: ${describeResponse(created)}`);
  }
  const platformId = platform.id;
  for (const [by, shared] of [['id', { datasetId: platformId }], ['name', { datasetName: name }]] as const) {
    const [c] = fc.sample(validUpload({ naming: by }), { numRuns: 1, seed: t.testSeed });
    const exchange = await upload(t, bodyOf(t, c!, shared));
    const status = exchange.response?.status ?? 0;
    const dataset = (exchange.response?.json as { dataset?: JsonObject } | undefined)?.dataset;
    const refused = status >= 400 && status < 500;
    const elsewhere = status >= 200 && status < 300 && dataset !== undefined && dataset.id !== platformId && dataset.externally_managed === true;
    t.expectOn(exchange, refused || elsewhere, {
      message: `An upload naming the platform dataset ${platformId} by ${by} was neither refused nor put in a different, externally managed dataset.`,
      expected: 'a 4xx refusal, or a 2xx with another dataset that is externally managed',
    });
  }
}, { cost: { creates: { uploads: 2 } } });
