// Request fields (spec 2.8): well-formed uploads of any shape are accepted; an upload lacking a
// required field (top level, row, or feedback) is refused.
import fc from 'fast-check';
import { missingRequired, REQUIRED_FIELDS, withoutField, type RequiredField } from '../../generators/experiment-upload/required-fields.ts';
import { uploadBody, validUpload, edgeUpload, type UploadCase } from '../../generators/experiment-upload/upload.ts';
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { bodyOf, uploadOk, uploadRefused } from './support/upload.ts';

/** Ids for classifying a case without the network: only which fields exist matters. */
const PLACEHOLDER_IDS = { experimentName: 'x', datasetName: 'x', datasetId: '00000000-0000-4000-8000-000000000000', rowIds: ['00000000-0000-4000-8000-000000000001'] };

requirement('EU-REQ-001', async (t: Check) => {
  await t.property(fc.oneof(validUpload(), edgeUpload()), async (c) => {
    await uploadOk(t, bodyOf(t, c), 'EU-REQ-001', 'A well-formed upload');
  }, { sideBySide: true });
}, { cost: (p) => ({ creates: { uploads: p.runs } }) });

function refusesWithout(id: string, fields: RequiredField[]): void {
  requirement(id, async (t: Check) => {
    await t.property(
      fc.tuple(validUpload(), fc.constantFrom(...fields), fc.nat()),
      async ([c, field, pick]) => {
        await uploadRefused(t, withoutField(bodyOf(t, c), field, pick), id, `An upload without ${field}`);
      },
      {
        numRuns: Math.max(fields.length * 2, Math.min(t.profile.runs, 12)),
        sideBySide: true,
        stillClassified: ([c, field, pick]: [UploadCase, RequiredField, number]) => missingRequired(withoutField(uploadBody(c, PLACEHOLDER_IDS), field, pick)).includes(field),
      },
    );
  });
}

refusesWithout('EU-REQ-002', REQUIRED_FIELDS.filter((f) => !f.includes('.')));
refusesWithout('EU-REQ-003', REQUIRED_FIELDS.filter((f) => f.startsWith('results.')));
refusesWithout('EU-REQ-004', REQUIRED_FIELDS.filter((f) => f.startsWith('feedback.')));
