// Revision creation (spec 3): creating a deployment makes one revision; a PATCH with any trigger of
// the table (a non-null source_revision_config member, secrets, a resource_spec) makes exactly one,
// however many triggers it carries; a PATCH with none makes none. The deployment's
// latest_revision_id and source_revision_config follow the newest revision, judged on a PATCH that
// changes a revision-relevant value.
import fc from 'fast-check';
import { changedValuePatch, combinedTriggerPatch, nonTriggerPatch, triggerPatch, triggersFor, type GeneratedTrigger, type PatchBody } from '../../generators/control-plane/patches.ts';
import { BUILDABLE, CONTAINER } from '../../generators/control-plane/source-rules.ts';
import { requirement, type Check, type TargetProfile, byLimit } from '../../harness/conformance/index.ts';
import type { Deployment, Source } from '../../schemas/index.ts';
import { firstOffered, sharedCost, sharedFirstListing, sharedSimple, simpleKind } from './support/shared.ts';
import {
  ANY_SOURCE,
  createDeployment,
  creates,
  deploymentPerPatch,
  field,
  generatorContext,
  getDeployment,
  is2xx,
  listedRevisions,
  listRevisions,
  offered,
  patchAddingRevision,
  patchOk,
  pickSource,
  refusedWaits,
  revisionConfigOf,
  revisionValueDifferences,
  revisionsShown,
  simpleBody,
} from './support/steps.ts';
import { putTarball, requestUpload, sourceTarball } from './support/upload.ts';

/** PATCHes `body` and checks it created exactly `expected` revisions; returns the deployment the PATCH answered with. */
async function patchCounting(t: Check, deployment: Deployment, body: PatchBody, expected: 0 | 1, rule: string): Promise<Deployment> {
  const before = await listRevisions(t, deployment.id);
  const patched = await patchOk(t, deployment.id, body, rule);
  const after = await listRevisions(t, deployment.id);
  t.expect(after.length === before.length + expected, {
    requirement: rule,
    // The message names the PATCH's fields only: their generated values change with the seed, and are in `expected`.
    message: `A PATCH of ${Object.keys(body).join(', ') || 'no field'} took the deployment from ${before.length} to ${after.length} revision(s); expected ${expected === 1 ? 'exactly one more' : 'no new one'}.`,
    expected: { revisions: before.length + expected, before: revisionsShown(before), patch: body },
    seen: { revisions: after.length, listed: revisionsShown(after) },
  });
  if (expected === 0) {
    t.expect(patched.latest_revision_id === deployment.latest_revision_id || patched.latest_revision_id === field(before[0], 'id'), {
      requirement: rule,
      message: 'A PATCH without revision triggers changed latest_revision_id.',
      expected: { latest_revision_id: field(before[0], 'id') },
      seen: { latest_revision_id: patched.latest_revision_id },
    });
  }
  return patched;
}

/** Sample one value of an arbitrary, reproducibly from the test's seed. */
const one = <T>(t: Check, arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { numRuns: 1, seed: t.testSeed })[0]!;

/** CP-REV-001's deployment: the simplest of the first of these the profile offers. */
const FIRST_REVISION: readonly Source[] = ['internal_container', 'gitforge', 'external_container', 'internal_source'];

requirement('CP-REV-001', async (t: Check) => {
  // The run's deployment's create where it hands one to many tests, with the listing read right after it (shared.ts).
  const { created, listing } = await sharedFirstListing(t, ...simpleKind(t, FIRST_REVISION));
  const revisions = listedRevisions(t, listing);
  t.expectOn(listing, revisions.length === 1 && field(revisions[0], 'id') === created.latest_revision_id, {
    message: `A new deployment has ${revisions.length} revision(s); expected exactly one, the one latest_revision_id names.`,
    expected: { revisions: 1, latest_revision_id: created.latest_revision_id },
    seen: { revisions: revisions.length, listed: revisionsShown(revisions) },
  });
}, { cost: (p) => sharedCost(p, firstOffered(p, FIRST_REVISION)) });

/** One test per trigger row: a deployment of a source it applies to, one PATCH with that trigger alone. */
function triggerRow(rule: string, trigger: GeneratedTrigger, sources: readonly Source[]): void {
  requirement(rule, async (t: Check) => {
    const created = await sharedSimple(t, sources, `${trigger} applies to it`);
    const body = one(t, triggerPatch(generatorContext(t), trigger));
    const patched = await patchCounting(t, created, body, 1, rule);
    // The PATCH's secret names are new to the deployment (the run's included), so they show only if it took them.
    if (trigger === 'secrets') {
      const listed = Array.isArray(patched.secrets) ? patched.secrets.map((s) => s.name) : [];
      const missing = (body.secrets ?? []).map((s) => s.name).filter((n) => !listed.includes(n));
      t.expect(missing.length === 0, { requirement: rule, message: `The PATCH created a revision but the deployment it answered with does not list the secret(s) ${missing.join(', ')} it sent.`, expected: (body.secrets ?? []).map((s) => s.name), seen: listed });
    }
  }, { cost: (p) => refusedWaits(sharedCost(p, firstOffered(p, sources), 1), 1) });
}

triggerRow('CP-REV-002', 'repo_ref', ['gitforge']);
triggerRow('CP-REV-003', 'graph_config_path', BUILDABLE);
triggerRow('CP-REV-004', 'image_uri', CONTAINER);
triggerRow('CP-REV-006', 'secrets', ['internal_container', 'gitforge', 'external_container', 'internal_source']);
triggerRow('CP-REV-007', 'resource_spec', ['external_container']);

const COMBINED = ['external_container', 'gitforge', 'internal_container', 'internal_source'] as const;
/** Combined-trigger PATCHes, each a build: two where the run's creates are limited. */
const combinedRuns = (p: TargetProfile) => byLimit(p, { unlimited: Math.max(2, Math.min(p.runs, 4)), limited: 2 });

requirement('CP-REV-008', async (t: Check) => {
  const ctx = generatorContext(t);
  const source = pickSource(t, COMBINED);
  // One deployment for every case, or (deploymentPerPatch) one per case, the cases side by side.
  const spread = deploymentPerPatch(t);
  const shared = spread ? undefined : await sharedSimple(t, [source]);
  await t.property(
    combinedTriggerPatch(ctx, source),
    async ({ patch: body }) => {
      const created = shared ?? (await createDeployment(t, simpleBody(t, source, 'comb')));
      await patchCounting(t, created, body, 1, 'CP-REV-008');
    },
    { numRuns: combinedRuns(t.profile), sideBySide: spread },
  );
}, {
  // Spread: each case waits for its own deployment's first revision, all at once. Where PATCHes
  // wait for a revision in progress, the cases spread unless the run's creates are limited, else wait in a row.
  cost: (p) =>
    deploymentPerPatch({ profile: p })
      ? refusedWaits(creates(combinedRuns(p), 2 * combinedRuns(p)), 1)
      : refusedWaits(sharedCost(p, firstOffered(p, COMBINED), combinedRuns(p)), byLimit(p, { unlimited: 1, limited: combinedRuns(p) })),
});

const UNTRIGGERED = ['gitforge', 'external_container', 'internal_container', 'internal_source'] as const;

requirement(
  ['CP-REV-009', 'CP-REV-010', 'CP-REV-011'],
  async (t: Check) => {
    const source = pickSource(t, UNTRIGGERED);
    const created = await sharedSimple(t, [source]);
    await patchCounting(t, created, {}, 0, 'CP-REV-010');
    await patchCounting(t, created, { source_revision_config: null, secrets: null, source_config: null }, 0, 'CP-REV-011');
    await patchCounting(t, created, { source_revision_config: { repo_ref: null, graph_config_path: null, image_uri: null, source_tarball_path: null } }, 0, 'CP-REV-011');
    const settable = source === 'gitforge' ? { build_on_push: false } : source === 'external_container' ? { custom_url: `https://${t.name('url')}.example.com` } : {};
    await patchCounting(t, created, { source_config: settable }, 0, 'CP-REV-009');
    await t.property(
      nonTriggerPatch(source),
      async (body) => {
        const kind = Object.keys(body).length === 0 ? 'CP-REV-010' : body.source_config ? 'CP-REV-009' : 'CP-REV-011';
        await patchCounting(t, created, body, 0, kind);
      },
      { numRuns: Math.max(2, Math.min(t.profile.runs, 6)) },
    );
  },
  { cost: (p) => sharedCost(p, firstOffered(p, UNTRIGGERED)), title: 'PATCHes without revision triggers (source_config only, empty, null members) create no revision' },
);

const LATEST = ['internal_container', 'external_container', 'gitforge', 'internal_source'] as const;

requirement('CP-REV-013', async (t: Check) => {
  const ctx = generatorContext(t);
  const source = pickSource(t, LATEST);
  const created = await sharedSimple(t, [source]);
  const trigger = triggersFor(source).find((tr) => tr !== 'secrets' && tr !== 'resource_spec') ?? 'secrets';
  for (const body of [one(t, triggerPatch(ctx, 'secrets')), one(t, triggerPatch(ctx, trigger))]) {
    // The added revision is found by id: the listing's order is CP-REVL-002's rule.
    const { patched, added: newest } = await patchAddingRevision(t, created.id, body);
    t.expect(patched.latest_revision_id === newest.id, {
      message: 'After a revision-creating PATCH, latest_revision_id does not name the revision the PATCH added.',
      expected: newest.id,
      seen: patched.latest_revision_id,
    });
  }
}, { cost: (p) => refusedWaits(sharedCost(p, firstOffered(p, LATEST), 2), 2) });

/**
 * The upload flow's PATCH for an internal_source deployment: a fresh object path is a value the
 * deployment did not hold. Undefined when the target hands out no path or refuses the tarball.
 */
async function uploadedTarballPatch(t: Check, deploymentId: string): Promise<PatchBody | undefined> {
  const grant = await requestUpload(t, deploymentId);
  if (!grant.uploadUrl || !grant.objectPath) return undefined;
  const put = await putTarball(t, grant.uploadUrl, sourceTarball(t.profile.fixtures.gitforge.graphConfigPath, t.profile.fixtures.graphId));
  return is2xx(put) ? { revision_source: 'internal_source', source_revision_config: { source_tarball_path: grant.objectPath } } : undefined;
}

/**
 * CP-REV-014 needs a PATCH that changes a revision-relevant value (the fixtures' second image or
 * branch, or a freshly uploaded tarball): a deployment that kept an earlier revision's values
 * differs from its latest revision only when the values differ. Both the PATCH's answer and a
 * later read are judged.
 */
/** The source whose revision-relevant value a PATCH can change: one with a second fixture value, else internal_source (an upload). */
function changeableSource(profile: TargetProfile): { fixed?: Source; source?: Source } {
  const sources = offered({ profile }, ANY_SOURCE);
  const fixed = sources.find((s) => changedValuePatch(profile.fixtures, s) !== undefined);
  return { ...(fixed ? { fixed, source: fixed } : sources.includes('internal_source') ? { source: 'internal_source' } : {}) };
}

requirement('CP-REV-014', async (t: Check) => {
  const fixtures = generatorContext(t).fixtures;
  const { fixed, source: changeable } = changeableSource(t.profile);
  const noChange = `no revision-relevant value can change on this target: add fixtures.otherImageUri (a second image that deploys, for ${CONTAINER.join(' or ')}) or fixtures.gitforge.otherRepoRef (a second branch, for gitforge), or offer internal_source`;
  if (!changeable) t.notApplicable('fixture:other-revision-value', noChange);
  const created = await sharedSimple(t, [changeable]);
  // The run's deployment may hold the second value already (another test PATCHed it): the change is then back to the first.
  const body = fixed ? changedValuePatch(fixtures, fixed, created.source_revision_config as Record<string, unknown> | null) : await uploadedTarballPatch(t, created.id);
  if (!body) t.notApplicable('fixture:other-revision-value', `the upload flow handed out no tarball path this test could use, and ${noChange.replace(/^no/, 'no other')}`);
  const { patched, added: newest } = await patchAddingRevision(t, created.id, body);
  const changed = Object.keys(body.source_revision_config ?? {}) as (keyof NonNullable<PatchBody['source_revision_config']>)[];
  const before = revisionConfigOf(created);
  for (const [when, deployment] of [['the PATCH answer', patched], ['a GET after the PATCH', await getDeployment(t, created.id)]] as const) {
    const seen = deployment.source_revision_config as Record<string, unknown> | null;
    const wrong = revisionValueDifferences(revisionConfigOf(newest), seen);
    const stale = changed.filter((m) => (seen?.[m] ?? null) === (before[m] ?? null));
    t.expect(wrong.length === 0 && stale.length === 0, {
      message: `After a PATCH changing ${changed.join(', ')}, the deployment's source_revision_config in ${when} ${stale.length > 0 ? `still shows the earlier ${stale.join(', ')}` : `differs from its latest revision's (${wrong.join(', ')})`}.`,
      expected: revisionConfigOf(newest),
      seen,
    });
  }
}, { cost: (p) => sharedCost(p, changeableSource(p).source, 1) });
