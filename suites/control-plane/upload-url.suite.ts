// Source tarballs (spec 2.3, 3, 4.1): a source_tarball_path must come from the upload-url
// endpoint, arbitrary ones are refused; the upload flow (upload-url, PUT the tarball, PATCH with
// its object path) creates one revision carrying the path.
import { classifyCreate } from '../../generators/control-plane/classify.ts';
import { invalidCreate } from '../../generators/control-plane/create-payloads.ts';
import { arbitraryTarballPath } from '../../generators/control-plane/values.ts';
import { requirement, type Check, describeResponse, type TargetProfile } from '../../harness/conformance/index.ts';
import type { Deployment } from '../../schemas/index.ts';
import {
  expectPatchRefused,
  expectRefused,
  field,
  generatorContext,
  is2xx,
  listRevisions,
  patch,
  refusalRuns,
  revisionConfigOf,
  revisionCount,
  statusOf,
  tryCreate,
  revisionsShown,
  refusedWaits,
} from './support/steps.ts';
import { firstOffered, sharedCost, sharedSimple } from './support/shared.ts';
import { putTarball, requestUpload, sourceTarball, type UploadGrant } from './support/upload.ts';

const UPLOADING = ['internal_source'] as const;
const internalSource = (t: Check): Promise<Deployment> => sharedSimple(t, UPLOADING, 'it takes uploads');
const onInternalSource = (revisions: number) => (p: TargetProfile) => sharedCost(p, firstOffered(p, UPLOADING), revisions);

/** An upload grant that has both a location and an object path, or a failure naming `rule`. */
async function grantFor(t: Check, deployment: Deployment, rule: string): Promise<Required<UploadGrant>> {
  const grant = await requestUpload(t, deployment.id);
  t.expectOn(grant.exchange, is2xx(grant.exchange) && grant.uploadUrl !== undefined && grant.objectPath !== undefined, {
    requirement: rule,
    message: 'POST upload-url did not answer an upload location and an object path.',
    expected: 'HTTP 2xx with an upload URL and an object path (the field notes name them upload_url and object_path)',
  });
  return grant as Required<UploadGrant>;
}

requirement(
  ['CP-UPL-001', 'CP-UPL-002', 'CP-REV-005'],
  async (t: Check) => {
    const deployment = await internalSource(t);
    const grant = await grantFor(t, deployment, 'CP-UPL-001');
    const put = await putTarball(t, grant.uploadUrl, sourceTarball(t.profile.fixtures.gitforge.graphConfigPath, t.profile.fixtures.graphId));
    const before = await listRevisions(t, deployment.id);
    const exchange = await patch(t, deployment.id, { revision_source: 'internal_source', source_revision_config: { source_tarball_path: grant.objectPath } });
    // How to upload is not shown (PUT is the field notes', CP-UPL-004): with no tarball in place, a refusal conforms.
    if (!is2xx(put) && (statusOf(exchange) === 400 || statusOf(exchange) === 422)) {
      t.skip(`the PUT of the tarball to upload_url was not accepted (${describeResponse(put)}), so the target's refusal of the PATCH naming its object path conforms, and the upload flow cannot be judged`);
    }
    t.expectStatus(exchange, 200, { requirement: 'CP-UPL-002', message: `A PATCH naming an object path upload-url handed out answered ${statusOf(exchange) ?? 'nothing'}; expected 200.` });
    const revisions = await listRevisions(t, deployment.id);
    t.expect(revisions.length === before.length + 1, {
      requirement: 'CP-REV-005',
      message: `A PATCH with a source_tarball_path took the deployment from ${before.length} to ${revisions.length} revision(s); expected exactly one more.`,
      expected: { revisions: before.length + 1, before: revisionsShown(before) },
      seen: { revisions: revisions.length, listed: revisionsShown(revisions) },
    });
    // The new revision is the one not listed before (the listing's order is CP-REVL-002's rule, latest_revision_id CP-REV-013's).
    const created = revisions.find((r) => !before.some((b) => b.id === r.id));
    t.expect(revisionConfigOf(created).source_tarball_path === grant.objectPath, {
      requirement: 'CP-UPL-002',
      message: 'The revision the upload PATCH created does not carry the object path.',
      expected: { source_tarball_path: grant.objectPath },
      seen: created ?? revisions,
    });
  },
  { cost: (p) => refusedWaits(onInternalSource(1)(p), 1), title: 'The upload flow: upload-url, PUT the tarball, PATCH with the object path creates one revision carrying it' },
);

requirement(['CP-UPL-003', 'CP-UPL-004'], async (t: Check) => {
  const deployment = await internalSource(t);
  const exchange = await t.cp.post(`/v2/deployments/${deployment.id}/upload-url`);
  t.expectStatus(exchange, [200, 201], { requirement: 'CP-UPL-003' });
  t.expectSchema(exchange, 'UploadUrlResponse', { requirement: 'CP-UPL-003' });
  const uploadUrl = field(exchange.response?.json, 'upload_url') as string;
  const put = await putTarball(t, uploadUrl, sourceTarball(t.profile.fixtures.gitforge.graphConfigPath, t.profile.fixtures.graphId));
  t.expectOn(put, is2xx(put), { requirement: 'CP-UPL-004', message: 'PUT of a gzip tarball to upload_url was not accepted.', expected: 'HTTP 2xx' });
}, { cost: onInternalSource(0) });

requirement('CP-TAR-001', async (t: Check) => {
  const ctx = generatorContext(t, 'tar');
  await t.property(
    invalidCreate(ctx, ['CP-TAR-001']),
    async ({ payload, why }) => expectRefused(t, await tryCreate(t, payload), 'CP-TAR-001', `a body where ${why}`),
    { numRuns: refusalRuns(t), stillClassified: ({ payload }) => classifyCreate(payload, ctx.mode).breaks.includes('CP-TAR-001') },
  );
});

requirement('CP-TAR-002', async (t: Check) => {
  const deployment = await internalSource(t);
  const before = await revisionCount(t, deployment.id);
  await t.property(
    arbitraryTarballPath,
    async (path) => {
      const exchange = await patch(t, deployment.id, { revision_source: 'internal_source', source_revision_config: { source_tarball_path: path } });
      expectPatchRefused(t, exchange, 'CP-TAR-002', 'names an object path that no upload-url call handed out');
    },
    { numRuns: refusalRuns(t) },
  );
  const after = await revisionCount(t, deployment.id);
  t.expect(after === before, { message: 'A refused PATCH with a source_tarball_path created a revision.', expected: before, seen: after });
}, { cost: onInternalSource(0) });
