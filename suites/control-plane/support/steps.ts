// Steps the control-plane suites share: create a deployment with its deletion registered, read
// it and its revisions, PATCH it, wait for a revision, and pick what the target offers. Only HTTP
// through the check's client; only resources named with `t.name()`.
import { byLimit, runOfCollectedFile, type Check, type Exchange, type Owner, type TestCost, type TargetProfile } from '../../../harness/conformance/index.ts';
import type { Deployment, Source } from '../../../schemas/index.ts';
import { sourceAllowed, type GeneratorContext } from '../../../generators/control-plane/context.ts';
import { baseCreate, type CreateBody } from '../../../generators/control-plane/create-payloads.ts';
import { isObject } from '../../../schemas/is-object.ts';
export { isObject };

import { triggerRule } from '../../../generators/control-plane/commands.ts';
import type { PatchBody } from '../../../generators/control-plane/patches.ts';

export { revisionConfigOf } from '../../../generators/control-plane/commands.ts';

import { DEPLOYMENTS, deploymentPath, field, is2xx, is4xx, revisionPath, revisionsPath, statusOf } from './endpoints.ts';
import { untilIdle } from './revision-wait.ts';
import { refusedWhileBusy } from './busy-patch.ts';
export { DEPLOYMENTS, deploymentPath, field, is2xx, is4xx, revisionPath, revisionsPath, statusOf };
export { isFailed, isTerminal, waitForRevision } from './revision-wait.ts';
import { registerDeletion } from './deletion.ts';
export { deleteWithProject, registerDeletion } from './deletion.ts';

type Json = Record<string, unknown>;

/** What the generators need to know about the target, with a fresh run-prefixed name prefix. */
export function generatorContext(t: Check, hint = 'g'): GeneratorContext {
  return { mode: t.profile.controlPlaneMode, sources: t.profile.sources, fixtures: t.profile.fixtures, namePrefix: t.name(hint) };
}

/** The sources among `candidates` the target offers and its mode allows, in the candidates' order. */
export function offered(t: { profile: TargetProfile }, candidates: readonly Source[]): Source[] {
  return candidates.filter((s) => t.profile.sources.includes(s) && sourceAllowed(t.profile.controlPlaneMode, s));
}

/** The first offered source among `candidates`; without one the test is not applicable, and says why. */
export function pickSource(t: Check, candidates: readonly Source[], purpose = 'a deployment to check the rule on'): Source {
  const source = offered(t, candidates)[0];
  if (source) return source;
  return t.notApplicable(
    `source:${candidates.join('|')}`,
    `this check needs a deployment of ${candidates.join(' or ')} (${purpose}), and the profile offers none of them on a ${t.profile.controlPlaneMode} control plane`,
  );
}

/** Any source the target offers, for checks that work on every kind of deployment. */
export const ANY_SOURCE: readonly Source[] = ['internal_container', 'external_container', 'gitforge', 'internal_source'];

/** A valid create body of `source` made of the profile's fixtures, with a run-prefixed name. */
export function simpleBody(t: Check, source: Source, hint = 'd'): CreateBody {
  return baseCreate(generatorContext(t, hint), source, t.name(hint));
}

/**
 * Whether a create answered 503 took effect after all: a deployment of that run-unique name is
 * listed. Its deletion is registered then, so the run leaves nothing behind.
 */
async function createdNamed(t: Check, name: string, owner: Owner): Promise<boolean> {
  const listing = await t.cp.get(DEPLOYMENTS, { query: { name_contains: name } });
  const resources = field(listing.response?.json, 'resources');
  const found = (Array.isArray(resources) ? resources : []).find((d) => field(d, 'name') === name);
  if (owner === 'test' && typeof field(found, 'id') === 'string') registerDeletion(t, field(found, 'id') as string);
  return found !== undefined || !is2xx(listing);
}


/** POST /v2/deployments; whatever is created gets its deletion registered (by the test, unless the run owns it). */
export async function tryCreate(t: Check, body: unknown, owner: Owner = 'test'): Promise<Exchange> {
  const name = field(body, 'name');
  const exchange = await t.cp.post(DEPLOYMENTS, body, typeof name === 'string' ? { tookEffect: () => createdNamed(t, name, owner) } : {});
  const id = field(exchange.response?.json, 'id');
  if (owner === 'test' && is2xx(exchange) && typeof id === 'string') registerDeletion(t, id);
  return exchange;
}

/**
 * Creates a deployment the test needs and returns it. A step: any 2xx will do, and only what the
 * test goes on with is needed (an id and a latest_revision_id, CP-CREATE-003). Whether the
 * answer is exactly 201 with a whole Deployment is CP-CREATE-001/002's to judge.
 */
export async function createDeployment(t: Check, body: CreateBody): Promise<Deployment> {
  return acceptedCreate(t, await tryCreate(t, body), `a ${body.source} deployment`);
}

/** A create of `what` (a valid body) the test goes on with: a step, as createDeployment's. */
export function acceptedCreate(t: Check, exchange: Exchange, what: string): Deployment {
  t.needSuccess(exchange, { requirement: 'CP-CREATE-001', message: `Creating ${what} (a valid body) answered ${statusOf(exchange) ?? 'nothing'}; this test needs it accepted.` });
  const json = exchange.response?.json;
  t.needOn(exchange, typeof field(json, 'id') === 'string' && typeof field(json, 'latest_revision_id') === 'string', {
    requirement: 'CP-CREATE-003',
    message: 'The create response has no id and latest_revision_id to go on with.',
    expected: '{"id": <uuid>, "latest_revision_id": <uuid>, ...}',
  });
  return json as Deployment;
}

/** Checks `rule`: a create the rule says is valid answered a success (the exact 201 is CP-CREATE-001's rule). */
export function expectAccepted(t: Check, exchange: Exchange, rule: string, what: string): void {
  t.expectOn(exchange, is2xx(exchange), { requirement: rule, message: `A create of ${what} answered ${statusOf(exchange) ?? 'nothing'}; expected it accepted.`, expected: 'HTTP 2xx' });
}

/** Creates the simplest deployment of `source`. */
export async function createSimple(t: Check, source: Source, hint = 'd'): Promise<Deployment> {
  return createDeployment(t, simpleBody(t, source, hint));
}

/** Reads a deployment the test needs (a step on CP-READ-001: any 2xx with the deployment's id). */
export async function getDeployment(t: Check, id: string): Promise<Deployment> {
  const exchange = await t.cp.get(deploymentPath(id));
  t.needSuccess(exchange, { requirement: 'CP-READ-001' });
  t.needOn(exchange, field(exchange.response?.json, 'id') === id, { requirement: 'CP-READ-001', message: `GET ${deploymentPath(id)} did not answer that deployment.` });
  return exchange.response!.json as Deployment;
}

/** Revisions as a failure shows them: each id with the fields a listing rule compares (docs/reports.md, "Evidence"). */
export const revisionsShown = (revisions: unknown[]): Json[] =>
  revisions.map((r) => ({ id: field(r, 'id'), created_at: field(r, 'created_at'), status: field(r, 'status') }));

/**
 * A page this long may have more after it: the field notes' default page is 20, a platform's may
 * be 10. A deployment shared by many tests (shared.ts) gathers more revisions than one page holds.
 */
const MAYBE_MORE = 10;

/**
 * The revisions of a deployment, as its listing gives them (a step on CP-REVL-001: any 2xx with a
 * `resources` array), page after page (`offset`) while a page may have more. A page that repeats
 * revisions already seen ends it: the target does not page (CP-REVL-008's rule). Callers look
 * revisions up by id: their order is CP-REVL-002's to judge.
 */
export async function listRevisions(t: Check, id: string): Promise<Json[]> {
  const all: Json[] = [];
  for (;;) {
    const page = listedRevisions(t, await t.cp.get(revisionsPath(id), all.length > 0 ? { query: { offset: all.length } } : {}));
    if (page.some((r) => all.some((seen) => seen.id === r.id))) return all;
    all.push(...page);
    if (page.length < MAYBE_MORE) return all;
  }
}

/** The revisions of one page of a listing (a step on CP-REVL-001, as listRevisions). */
export function listedRevisions(t: Check, exchange: Exchange): Json[] {
  t.needSuccess(exchange, { requirement: 'CP-REVL-001' });
  const resources = field(exchange.response?.json, 'resources');
  t.needOn(exchange, Array.isArray(resources) && resources.every(isObject), {
    requirement: 'CP-REVL-001',
    message: 'The revisions listing is not an object with a `resources` array of revisions.',
    expected: '{"resources": [{"id": ..., "status": ...}, ...]}',
  });
  return resources as Json[];
}

export async function revisionCount(t: Check, id: string): Promise<number> {
  return (await listRevisions(t, id)).length;
}

/**
 * PATCH of a deployment, sent once its latest revision has ended (revision-wait.ts), as the
 * documented client does: a target may refuse a new revision while one is in progress (found out
 * at run time when the profile does not say so: busy-patch.ts). Only rules about concurrency send
 * it at once (`{ whileBusy: true }`).
 */
export async function patch(t: Check, id: string, body: unknown, options: { whileBusy?: boolean } = {}): Promise<Exchange> {
  for (let sent = 1; ; sent++) {
    const latest = options.whileBusy ? undefined : await untilIdle(t, id);
    // After a 503 the PATCH goes again only if it made no revision: one without triggers sets the same values again.
    const tookEffect = async () => latest === undefined || field((await t.cp.get(deploymentPath(id))).response?.json, 'latest_revision_id') !== latest;
    const exchange = await t.cp.patch(deploymentPath(id), body, { tookEffect });
    // Refused while a revision was in progress, which the profile did not say: learned, it waits (untilIdle) and goes again.
    if (options.whileBusy || sent >= BUSY_SENDS || !(await refusedWhileBusy(t, id, exchange, latest))) return exchange;
  }
}

/** Sends of one PATCH at most where the target refuses it while a revision is in progress (each after the revision ended). */
const BUSY_SENDS = 3;

/**
 * A valid PATCH the test needs to succeed. A step on `requirement` (CP-PATCH-001 unless the
 * test's rule is about accepting this very PATCH): any 2xx, answering the deployment with a
 * latest_revision_id. Exactly 200 with a whole Deployment is CP-PATCH-001's to judge.
 */
export async function patchOk(t: Check, id: string, body: unknown, requirement = 'CP-PATCH-001'): Promise<Deployment> {
  const exchange = await patch(t, id, body);
  t.expectOn(exchange, is2xx(exchange), { requirement, message: `A valid PATCH answered ${statusOf(exchange) ?? 'nothing'}; expected a success.`, expected: 'HTTP 2xx' });
  t.needOn(exchange, field(exchange.response?.json, 'id') === id, { requirement: 'CP-PATCH-001', message: 'The PATCH did not answer the deployment.' });
  return exchange.response!.json as Deployment;
}

/**
 * A revision-creating PATCH the test builds on: a step that relies on the trigger's own rule
 * (CP-REV-002..008), so a trigger that creates no revision fails that rule once and blocks the
 * tests that needed the revision. Returns the answer and the revision it added.
 */
export async function patchAddingRevision(t: Check, id: string, body: PatchBody): Promise<{ patched: Deployment; added: Json }> {
  const before = new Set((await listRevisions(t, id)).map((r) => r.id));
  const patched = await patchOk(t, id, body);
  const added = (await listRevisions(t, id)).filter((r) => !before.has(r.id));
  t.need(added.length === 1, {
    requirement: triggerRule(body),
    message: `A revision-creating PATCH added ${added.length} revision(s); this test needs exactly one.`,
    expected: 'one new revision',
    seen: added,
  });
  return { patched, added: added[0]! };
}

/** A PATCH that must be refused with 400 or 422 (spec 7). */
export function expectPatchRefused(t: Check, exchange: Exchange, requirement: string, why: string): void {
  t.expectStatus(exchange, [400, 422], { message: `A PATCH that ${why} answered ${statusOf(exchange) ?? 'nothing'}; expected 400 or 422.`, requirement });
}

/** A request that must be refused with some 4xx (the spec does not fix the code). */
export function expectRefused(t: Check, exchange: Exchange, requirement: string, why: string): void {
  t.expectOn(exchange, is4xx(exchange), {
    message: `${exchange.request.method} ${new URL(exchange.request.url).pathname} with ${why} answered ${statusOf(exchange) ?? 'nothing'}; expected a 4xx refusal.`,
    expected: 'HTTP 4xx',
    requirement,
  });
}

const REVISION_VALUE_KEYS = ['repo_ref', 'graph_config_path', 'image_uri', 'source_tarball_path', 'repo_commit_sha'] as const;

/** The SourceRevisionConfig members on which two reports differ (null and absent are alike). */
export function revisionValueDifferences(a: unknown, b: unknown): string[] {
  const left = isObject(a) ? a : {};
  const right = isObject(b) ? b : {};
  return REVISION_VALUE_KEYS.filter((k) => (left[k] ?? null) !== (right[k] ?? null));
}

/** Test deadline for `waits` revision waits in a row (each up to the profile's deploy timeout). */
export function deployTimeout(waits: number): number | 'deploy' {
  const run = (() => {
    try {
      return runOfCollectedFile();
    } catch {
      return undefined;
    }
  })();
  if (!run) return 'deploy';
  const { deployMs, requestMs } = run.profile.timeouts;
  return waits * deployMs + Math.max(60_000, requestMs * 8);
}

/**
 * Runs for a property whose every case creates a deployment (each costs the target a build):
 * where the profile limits what the run creates one case, so the limit buys more rules (harness/run/cost.ts).
 */
export const createRuns = (t: { profile: TargetProfile }): number => byLimit(t.profile, { unlimited: Math.max(2, Math.min(t.profile.runs, 5)), limited: 1 });
/**
 * Whether a test that PATCHes one deployment several times gives each PATCH a deployment of its
 * own instead, the PATCHes side by side: where the target refuses a PATCH while a revision is in
 * progress each PATCH to one deployment waits for the revision before it (a build in a row each),
 * and no limit holds the deployments down.
 */
export const deploymentPerPatch = (t: { profile: TargetProfile }): boolean => t.profile.busyPatch === 'refused' && byLimit(t.profile, { unlimited: true, limited: false });
/** Runs for a property whose cases are refused requests. */
export const refusalRuns = (t: { profile: TargetProfile }): number => Math.max(3, Math.min(t.profile.runs, 15));

/**
 * What a test creates at most on a target that follows the spec (harness/run/cost.ts): its
 * deployments, its revisions (each create makes one) and its revision waits one after another,
 * per busyPatch answer (by default none where PATCHes are accepted while a revision is in
 * progress, one per revision where they are refused: every PATCH waits for the revision before it).
 */
export const creates = (deployments: number, revisions = deployments, waits?: TestCost['waits']): TestCost => ({
  creates: { deployments, revisions },
  ...(waits !== undefined ? { waits } : {}),
});

/**
 * `cost` with the revision waits its test makes one after another where the target refuses a PATCH
 * while a revision is in progress: each of its PATCHes to a deployment whose revision has not ended
 * waits for it first (patch()). Where the target accepts such a PATCH, none: the test itself waits
 * for no revision to end. For tests that make fewer than one wait per revision they make.
 */
export const refusedWaits = (cost: TestCost, waits: number): TestCost => ({ ...cost, waits: { accepted: 0, refused: waits } });

/** A random uuid no deployment has. */
export { randomUUID as unknownId } from 'node:crypto';
