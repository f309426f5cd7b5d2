// Deployments that serve many rules. On a real platform every deployment is a database, a tracing
// project and a build: under a budget (harness/run/cost.ts) a test whose rule does not need a
// deployment of its own (reads, listings, refusals, PATCHes that only add revisions) takes one
// from the run's pool instead of creating it. Without a budget each test creates its own, as
// before, so their revision waits overlap.
//
// The pool belongs to the run, not to a suite worker: tests in every worker share it, and each
// holds a lease on the keys it declares in its cost (harness/conformance/pool.ts) while it runs,
// so one test at a time uses a pooled deployment: counts it reads before and after its own
// PATCHes are its own. Tests on different keys run side by side. A test that failed may have left
// the deployment changed: it is dropped from the pool, and the next test creates another. Pooled
// deployments carry the run's name prefix; the run deletes them at its end, also after an
// interrupt (harness/run/leftovers.ts), and `apc cleanup` finds any left.
import { poolLease, type Check, type Exchange, type TargetProfile, type TestCost, budgeted } from '../../../harness/conformance/index.ts';
import type { Deployment, Source } from '../../../schemas/index.ts';
import type { CreateBody } from '../../../generators/control-plane/create-payloads.ts';
import { field, is2xx, revisionsPath } from './endpoints.ts';
import { creates, getDeployment, offered, pickSource, simpleBody, tryCreate } from './steps.ts';

interface Pooled {
  /** The accepted create that made it (a rule about accepting that body judges it). */
  exchange: Exchange;
  id: string;
  /** Its revisions listing read right after the create, before any test changed it (CP-REV-001 judges it). */
  firstListing: Exchange;
}

const shares = (profile: TargetProfile): boolean => budgeted(profile);

/** A pooled deployment costs its create and first revision, once per run. */
const POOLED: TestCost['creates'] = { deployments: 1, revisions: 1 };

/** The first of `candidates` the profile offers (pickSource's choice, known before the run for the plan). */
export const firstOffered = (profile: TargetProfile, candidates: readonly Source[]): Source | undefined => offered({ profile }, candidates)[0];

/**
 * The cost of a test on deployments of pool `keys` to which it adds `revisions`: under a budget
 * the pooled deployments (each counted once per run in the plan) and the revisions; otherwise
 * deployments of its own. No key (the profile offers no source for it): one of its own.
 */
export function sharedCost(profile: TargetProfile, keys: string | undefined | readonly string[], revisions = 0): TestCost {
  const list = typeof keys === 'string' ? [keys] : (keys ?? []);
  if (!shares(profile) || list.length === 0) return creates(Math.max(1, list.length), Math.max(1, list.length) + revisions);
  return { creates: revisions > 0 ? { revisions } : {}, shared: Object.fromEntries(list.map((key) => [key, POOLED])) };
}

/** `cost` and `deployments` of the test's own besides (each with its first revision). */
export const withOwn = (cost: TestCost, deployments: number): TestCost =>
  deployments === 0 ? cost : { ...cost, creates: { ...cost.creates, deployments: (cost.creates.deployments ?? 0) + deployments, revisions: (cost.creates.revisions ?? 0) + deployments } };

/**
 * The create of pool `key` (made of `body`): this test's own create without a budget; under one,
 * the pool's accepted create, made now when the pool has none. A refused create is not pooled.
 */
export async function sharedCreate(t: Check, key: string, body: () => CreateBody): Promise<Exchange> {
  if (!shares(t.profile)) return tryCreate(t, body());
  const lease = poolLease<Pooled>(t, key);
  if (lease.value) return lease.value.exchange;
  const exchange = await tryCreate(t, body(), 'run');
  const id = field(exchange.response?.json, 'id');
  // Read, not judged: the rule about what a create makes is CP-REV-001's, whichever test made it.
  if (is2xx(exchange) && typeof id === 'string') lease.value = { exchange, id, firstListing: await t.cp.get(revisionsPath(id)) };
  return exchange;
}

/**
 * The create of pool `key` and its revisions listing as it was right after the create: under a
 * budget the pool's (one GET when the pool makes it); otherwise this test's own create and listing.
 */
export async function sharedFirstListing(t: Check, key: string, body: () => CreateBody): Promise<{ created: Deployment; listing: Exchange }> {
  const created = await sharedCreated(t, key, body);
  const listing = shares(t.profile) ? poolLease<Pooled>(t, key).value?.firstListing : undefined;
  return { created, listing: listing ?? (await t.cp.get(revisionsPath(created.id))) };
}

/**
 * The create's answer for pool `key` (a step, like createDeployment: any 2xx with an id and a
 * latest_revision_id). Under a budget it may be an earlier test's: the deployment has changed
 * since (sharedDeployment reads it as it is now).
 */
export async function sharedCreated(t: Check, key: string, body: () => CreateBody): Promise<Deployment> {
  const exchange = await sharedCreate(t, key, body);
  t.needSuccess(exchange, { requirement: 'CP-CREATE-001', message: `Creating a deployment (a valid body) answered ${exchange.response?.status ?? 'nothing'}; this test needs it accepted.` });
  const json = exchange.response?.json;
  t.needOn(exchange, typeof field(json, 'id') === 'string' && typeof field(json, 'latest_revision_id') === 'string', {
    requirement: 'CP-CREATE-003',
    message: 'The create response has no id and latest_revision_id to go on with.',
    expected: '{"id": <uuid>, "latest_revision_id": <uuid>, ...}',
  });
  return json as Deployment;
}

/**
 * A deployment of pool `key` the test goes on with, as it is now. A pooled one is read: the read
 * also tells the test which revision is the latest, so only revisions its own PATCHes add count
 * as created by it (harness/conformance/created.ts).
 */
export async function sharedDeployment(t: Check, key: string, body: () => CreateBody): Promise<Deployment> {
  const created = await sharedCreated(t, key, body);
  return shares(t.profile) ? getDeployment(t, created.id) : created;
}

/** The pool key and body of the simplest deployment of the first offered source among `candidates`. */
export function simplePool(t: Check, candidates: readonly Source[], purpose?: string): [Source, () => CreateBody] {
  const source = pickSource(t, candidates, purpose);
  return [source, () => simpleBody(t, source, 'pool')];
}

/** The simplest deployment of the first offered source among `candidates`, shared under a budget. */
export async function sharedSimple(t: Check, candidates: readonly Source[], purpose?: string): Promise<Deployment> {
  return sharedDeployment(t, ...simplePool(t, candidates, purpose));
}
