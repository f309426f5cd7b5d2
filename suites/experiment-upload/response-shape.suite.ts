// The upload's answer (spec 2.8): dataset and experiment with every listed field, carrying what
// was uploaded.
import fc from 'fast-check';
import { instantOf } from '../../generators/experiment-upload/datetimes.ts';
import { validUpload } from '../../generators/experiment-upload/upload.ts';
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { bodyOf, freshIds, uploadOk, type JsonObject } from './support/upload.ts';

requirement('EU-RESP-001', async (t: Check) => {
  await t.property(
    validUpload(),
    async (c) => {
      // Acceptance is EU-REQ-001's rule (generated rows may lie on the window's edges); this test judges the answer's shape.
      const { exchange } = await uploadOk(t, bodyOf(t, c));
      t.expectSchema(exchange, 'ExperimentUploadResponse');
    },
    { numRuns: Math.min(t.profile.runs, 5), sideBySide: true },
  );
}, { cost: (p) => ({ creates: { uploads: Math.min(p.runs, 5) } }) });

requirement('EU-RESP-003', async (t: Check) => {
  for (const naming of ['name', 'both', 'id'] as const) {
    const [c] = fc.sample(validUpload({ naming, spelling: 'zoned' }), { numRuns: 1, seed: t.testSeed });
    const ids = freshIds(t, c!.rows.length);
    // Descriptions are always sent: an implementation that ignored one would otherwise look right.
    // Each upload names a fresh dataset, so the dataset is made by it and holds its description.
    const body: JsonObject = { ...bodyOf(t, c!, ids), experiment_description: `${ids.experimentName} (described)`, dataset_description: `${ids.datasetName} (described)` };
    const { experiment, dataset } = await uploadOk(t, body);
    t.expect(experiment.name === ids.experimentName, { message: 'The experiment does not carry the uploaded experiment_name.', expected: ids.experimentName, seen: experiment.name });
    t.expect(experiment.description === body.experiment_description, { message: 'The experiment does not carry the uploaded experiment_description.', expected: body.experiment_description, seen: experiment.description });
    for (const [field, sent] of [['start_time', body.experiment_start_time], ['end_time', body.experiment_end_time]] as const) {
      const seen = experiment[field];
      t.expect(typeof seen === 'string' && instantOf(seen) === instantOf(sent as string), {
        message: `The experiment's ${field} is not the instant uploaded as experiment_${field}.`,
        expected: sent,
        seen,
      });
    }
    if (naming !== 'id') t.expect(dataset.name === ids.datasetName, { message: 'The dataset does not carry the uploaded dataset_name.', expected: ids.datasetName, seen: dataset.name });
    t.expect(dataset.description === body.dataset_description, { message: 'The dataset made by the upload does not carry the uploaded dataset_description.', expected: body.dataset_description, seen: dataset.description });
  }
}, { cost: { creates: { uploads: 3 } } });
