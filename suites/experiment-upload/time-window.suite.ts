// The time window (spec 4.3 rule 4): rows inside it, on its edges and in any offset are
// accepted; a row one millisecond (or more) outside is refused. Naive datetimes read as UTC
// (field notes) are checked on their own, at level MAY.
import { edgeUpload, outsideUpload, windowClass, type UploadCase } from '../../generators/experiment-upload/upload.ts';
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { bodyOf, uploadOk, uploadRefused } from './support/upload.ts';

const outside = (c: UploadCase) => windowClass(c) === 'outside';

requirement('EU-TW-001', async (t: Check) => {
  await t.property(
    edgeUpload({ spelling: 'zoned' }),
    async (c) => {
      await uploadOk(t, bodyOf(t, c), 'EU-TW-001', 'An upload with rows inside the window and on both its edges');
    },
    { stillClassified: (c) => windowClass(c) === 'edge', sideBySide: true },
  );
}, { cost: (p) => ({ creates: { uploads: p.runs } }) });

requirement('EU-TW-002', async (t: Check) => {
  await t.property(
    outsideUpload(1, { spelling: 'zoned' }),
    async (c) => {
      await uploadRefused(t, bodyOf(t, c), 'EU-TW-002', `An upload with a row 1 ms outside the window (${c.outside})`);
    },
    { stillClassified: outside, sideBySide: true },
  );
  await t.property(
    outsideUpload(undefined, { spelling: 'zoned' }),
    async (c) => {
      await uploadRefused(t, bodyOf(t, c), 'EU-TW-002', `An upload with a row outside the window (${c.outside})`);
    },
    { numRuns: Math.min(t.profile.runs, 10), stillClassified: outside, sideBySide: true },
  );
});

requirement('EU-TW-003', async (t: Check) => {
  const numRuns = Math.min(t.profile.runs, 10);
  const edge = (c: UploadCase) => windowClass(c) === 'edge';
  await t.property(
    edgeUpload({ spelling: 'naive' }),
    async (c) => {
      await uploadOk(t, bodyOf(t, c), 'EU-TW-003', 'An upload with naive datetimes only, rows on the window edges');
    },
    { numRuns, stillClassified: edge, sideBySide: true },
  );
  await t.property(
    edgeUpload({ spelling: 'naive-window' }),
    async (c) => {
      await uploadOk(t, bodyOf(t, c), 'EU-TW-003', 'An upload with a naive window and rows with offsets exactly on its edges (read as UTC)');
    },
    { numRuns, stillClassified: edge, sideBySide: true },
  );
  await t.property(
    outsideUpload(1, { spelling: 'naive-window' }),
    async (c) => {
      await uploadRefused(t, bodyOf(t, c), 'EU-TW-003', 'An upload with a naive window and a row with an offset 1 ms outside it, read as UTC');
    },
    { numRuns, stillClassified: outside, sideBySide: true },
  );
}, { cost: (p) => ({ creates: { uploads: 3 * Math.min(p.runs, 10) } }) });
