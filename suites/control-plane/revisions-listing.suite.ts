// Listing and reading revisions (spec 2.6, 4.1): an object with a `resources` array, newest first,
// each revision with an id and a status and the SourceRevisionConfig values it was created with.
import fc from 'fast-check';
import { changedValuePatch, triggerPatch, triggersFor } from '../../generators/control-plane/patches.ts';
import { REVISION_MEMBERS, isSet } from '../../generators/control-plane/source-rules.ts';
import { requirement, type Check, type Owner, type TargetProfile, type TestCost } from '../../harness/conformance/index.ts';
import type { Deployment, Source } from '../../schemas/index.ts';
import { firstOffered, sharedCost, sharedDeploymentOf, sharedSimple, simpleKind } from './support/shared.ts';
import {
  expectRefused,
  field,
  generatorContext,
  listRevisions,
  offered,
  patchAddingRevision,
  ANY_SOURCE,
  pickSource,
  refusedWaits,
  revisionConfigOf,
  revisionPath,
  revisionsPath,
  revisionsShown,
  statusOf,
  unknownId,
} from './support/steps.ts';
import { REVISION_STATUSES } from './support/revision-wait.ts';

type Json = Record<string, unknown>;
/** The cost of a test adding `revisions` to a deployment of the first offered source. */
const onPooled = (revisions: number) => (p: TargetProfile) => sharedCost(p, firstOffered(p, ANY_SOURCE), revisions);

/** threeRevisions' source: the first offered whose revision value the fixtures can change. */
const historySource = (p: TargetProfile): Source | undefined => offered({ profile: p }, ANY_SOURCE).find((s) => changedValuePatch(p.fixtures, s) !== undefined) ?? firstOffered(p, ANY_SOURCE);

const HISTORY = 'revisions-listing-history';
/** The cost of a test on threeRevisions: where the run's creates are limited the file's tests share one history, whose two PATCHes count once. */
function onHistory(p: TargetProfile): TestCost {
  // Where PATCHes wait for a revision in progress, each of the two waits for the one before it.
  const cost = refusedWaits(sharedCost(p, historySource(p), 2), 2);
  return cost.shared ? { ...cost, creates: {}, shared: { ...cost.shared, [HISTORY]: { revisions: 2 } } } : cost;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;


interface History {
  deployment: Deployment;
  /** Revision ids, oldest first, as the create and each PATCH reported them. */
  ids: string[];
  /** For each revision (same order), the SourceRevisionConfig members its request set. */
  set: Json[];
}

const membersSet = (config: unknown): Json =>
  Object.fromEntries(REVISION_MEMBERS.filter((m) => isSet(field(config, m))).map((m) => [m, field(config, m)]));

/**
 * A deployment's three newest revisions: its latest, one from a secrets PATCH, one from a value
 * PATCH. Where the fixtures hold a second value (another image or branch), the value PATCH changes
 * it, so the first and the last revision carry different values: a target that showed every
 * revision with the first's values, or with the latest's, would otherwise look right
 * (CP-REVL-005). Of the test's own deployment the latest is its first, made with the create's values;
 * the run's (support/shared.ts) is another test's, whose values this test does not know: those
 * are judged on the two it made, the value PATCH first. The run's history is handed to the next test,
 * even when a test of another file has PATCHed the deployment since (its revisions are then newer
 * than the history's): the plan counts the history's two PATCHes once, and making them again
 * could take the run past its limit. The tests judge the history's revisions among whatever else
 * the listing holds.
 */
async function threeRevisions(t: Check): Promise<History> {
  const source = historySource(t.profile) ?? pickSource(t, ANY_SOURCE);
  const { deployment, owner } = await sharedDeploymentOf(t, ...simpleKind(t, [source]));
  // The history made last on this deployment, also when another test has since added newer revisions.
  const handed = await t.needs.one(HISTORY, () => makeHistory(t, source, deployment, owner), { keepWhenFailed: true, usable: (h) => h.deployment.id === deployment.id });
  return handed.value;
}

async function makeHistory(t: Check, source: Source, deployment: Deployment, owner: Owner): Promise<History> {
  const ctx = generatorContext(t);
  const first = owner === 'run' ? {} : membersSet(deployment.source_revision_config);
  const history: History = { deployment, ids: [deployment.latest_revision_id!], set: [first] };
  const valueTrigger = triggersFor(source).find((tr) => tr !== 'secrets' && tr !== 'resource_spec') ?? 'secrets';
  // The run's deployment's latest values are unknown here: the value PATCH comes first, so an older
  // revision than the newest carries values this test knows (CP-REVL-005 judges the older ones too).
  const order = owner === 'run' ? ([valueTrigger, 'secrets'] as const) : (['secrets', valueTrigger] as const);
  for (const trigger of order) {
    const changed = trigger === 'secrets' ? undefined : changedValuePatch(ctx.fixtures, source, deployment.source_revision_config as Record<string, unknown> | null);
    const body = changed ?? fc.sample(triggerPatch(ctx, trigger), { numRuns: 1, seed: t.testSeed })[0]!;
    const { added } = await patchAddingRevision(t, deployment.id, body);
    history.ids.push(added.id as string);
    history.set.push(membersSet(body.source_revision_config));
  }
  return history;
}

requirement(
  ['CP-REVL-001', 'CP-REVL-002', 'CP-REVL-003', 'CP-REVL-005'],
  async (t: Check) => {
    const history = await threeRevisions(t);
    const listing = await t.cp.get(revisionsPath(history.deployment.id));
    t.expectStatus(listing, 200, { requirement: 'CP-REVL-001' });
    const resources = field(listing.response?.json, 'resources');
    t.expectOn(listing, Array.isArray(resources) && resources.every((r) => typeof r === 'object' && r !== null), {
      requirement: 'CP-REVL-001',
      message: 'The revisions listing is not an object with a `resources` array of revisions.',
      expected: '{"resources": [{"id": ..., "status": ...}, ...]}',
    });
    const revisions = resources as Json[];
    const ids = revisions.map((r) => field(r, 'id'));
    for (const revision of revisions) {
      t.expect(typeof revision.id === 'string' && UUID.test(revision.id) && typeof revision.status === 'string', {
        requirement: 'CP-REVL-003',
        message: 'A listed revision lacks a uuid id or a string status.',
        expected: '{"id": <uuid>, "status": <string>, ...}',
        seen: revision,
      });
    }
    // The order of the revisions this test made; how many there are is each trigger's rule (CP-REV-001..008).
    const newestFirst = [...history.ids].reverse();
    const ours = ids.filter((id) => history.ids.includes(id as string));
    // Evidence with the field the order is judged by: each id with its created_at.
    const shown = revisionsShown(revisions);
    t.expect(ours.length === newestFirst.length && ours.every((id, i) => id === newestFirst[i]), {
      requirement: 'CP-REVL-002',
      message: 'The revisions listing is not newest first.',
      expected: newestFirst.map((id) => shown.find((r) => r.id === id) ?? { id, created_at: '(not listed)' }),
      seen: shown,
    });
    const times = revisions.map((r) => r.created_at).filter((c): c is string => typeof c === 'string').map((c) => Date.parse(c));
    t.expect(times.every((time, i) => i === 0 || time <= times[i - 1]!), {
      requirement: 'CP-REVL-002',
      message: 'The revisions listing is not sorted by created_at descending.',
      expected: 'created_at non-increasing',
      seen: shown,
    });
    history.ids.forEach((id, i) => {
      const revision = revisions.find((r) => r.id === id);
      const config = revisionConfigOf(revision);
      const wrong = Object.keys(history.set[i]!).filter((k) => config[k] !== history.set[i]![k]);
      t.expect(wrong.length === 0, {
        requirement: 'CP-REVL-005',
        message: `Revision ${id} does not carry the values it was created with (${wrong.join(', ')}).`,
        expected: history.set[i],
        seen: revision,
      });
    });
  },
  { cost: onHistory, title: 'The revisions listing is {resources: [...]}, newest first, each revision with id, status and its values' },
);

requirement('CP-REVL-004', async (t: Check) => {
  const history = await threeRevisions(t);
  for (const id of history.ids) {
    const exchange = await t.cp.get(revisionPath(history.deployment.id, id));
    t.expectStatus(exchange, 200);
    const body = exchange.response?.json;
    t.expectOn(exchange, field(body, 'id') === id && typeof field(body, 'status') === 'string', {
      message: 'GET of a revision did not answer that revision with a status.',
      expected: { id, status: '<string>' },
    });
  }
}, { cost: onHistory });

requirement(['CP-REVL-006'], async (t: Check) => {
  const deployment = await sharedSimple(t, ANY_SOURCE);
  expectRefused(t, await t.cp.get(revisionPath(deployment.id, unknownId())), 'CP-REVL-006', 'a revision id the deployment does not have');
}, { cost: onPooled(0) });

requirement('CP-REVL-007', async (t: Check) => {
  const history = await threeRevisions(t);
  for (const revision of await listRevisions(t, history.deployment.id)) {
    t.expectSchema(revision, 'Revision');
    const missing = ['created_at', 'updated_at', 'source', 'source_revision_config'].filter((key) => revision[key] === undefined);
    t.expect(missing.length === 0, { message: `A revision has no ${missing.join(', ')}.`, expected: 'id, created_at, updated_at, status, source, source_revision_config', seen: revision });
  }
}, { cost: onHistory });

requirement('CP-REVL-008', async (t: Check) => {
  const history = await threeRevisions(t);
  const whole = await t.cp.get(revisionsPath(history.deployment.id));
  t.expectSchema(whole, 'RevisionList');
  t.expectOn(whole, typeof field(whole.response?.json, 'offset') === 'number', { message: 'The revisions listing has no offset.' });
  // The page holding the history's second newest revision alone: offset 1, unless (on the run's
  // deployment) other tests have since added revisions, created after the history's
  // newest. Counted by created_at, not by place in the listing: the order is CP-REVL-002's rule.
  const listed = (field(whole.response?.json, 'resources') as Json[] | undefined) ?? [];
  const createdAt = (r: Json | undefined) => (typeof r?.created_at === 'string' ? Date.parse(r.created_at) : NaN);
  const newestAt = createdAt(listed.find((r) => r.id === history.ids.at(-1)));
  const offset = 1 + listed.filter((r) => !history.ids.includes(r.id as string) && createdAt(r) > newestAt).length;
  const page = await t.cp.get(revisionsPath(history.deployment.id), { query: { limit: 1, offset } });
  const pageIds = ((field(page.response?.json, 'resources') as Json[] | undefined) ?? []).map((r) => r.id);
  const second = history.ids.at(-2);
  t.expectOn(page, statusOf(page) === 200 && pageIds.length === 1 && pageIds[0] === second, {
    message: `The revisions listing with limit=1&offset=${offset} is not the ${offset === 1 ? 'second newest revision' : `revision after the ${offset} newest`} alone.`,
    expected: [second],
  });
}, { cost: onHistory });

/** Statuses are judged where a client reads them: in the listing, and in each revision's own GET (the one a wait polls). */
requirement('CP-REVL-009', async (t: Check) => {
  const history = await threeRevisions(t);
  const listed = (await listRevisions(t, history.deployment.id)).map((r) => r.status);
  const read: unknown[] = [];
  for (const id of history.ids) {
    const exchange = await t.cp.get(revisionPath(history.deployment.id, id));
    if (statusOf(exchange) === 200) read.push(field(exchange.response?.json, 'status'));
  }
  const known = (s: unknown) => typeof s === 'string' && REVISION_STATUSES.includes(s);
  const unknown = [...new Set([...listed, ...read].filter((s) => !known(s)))];
  t.expect(unknown.length === 0, {
    message: `A revision has status ${unknown.map((s) => (s === undefined ? '(none)' : JSON.stringify(s))).join(', ')}, outside the revision statuses the field notes list.`,
    expected: REVISION_STATUSES,
    seen: { listed, read },
  });
}, { cost: onHistory });

requirement('CP-REVL-010', async (t: Check) => {
  const id = unknownId();
  for (const path of [revisionsPath(id), revisionPath(id, unknownId())]) {
    const exchange = await t.cp.get(path);
    t.expectOn(exchange, statusOf(exchange) === 404 && field(exchange.response?.json, 'detail') === `Deployment ID ${id} not found.`, {
      message: `GET ${path} of an unknown deployment did not answer the field notes' 404 body.`,
      expected: `HTTP 404 {"detail": "Deployment ID ${id} not found."}`,
    });
  }
});
