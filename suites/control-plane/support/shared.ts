// Deployments that serve many rules. On a real platform every deployment is a database, a tracing
// project and a build: a test whose rule does not need a deployment of its own (reads, listings,
// refusals, PATCHes that only add revisions) says which deployment it needs, and the room of the
// harness that hands a test what it needs (`t.needs`) decides: one of the test's own, or (where the
// profile limits what the run creates) the run's, made once by whichever test needs it first and
// handed to one test at a time, so counts a test reads before and after its own PATCHes are its
// own. A test that failed may have left the deployment changed: the next test gets a new one. The
// cost declares what the test needs (`sharedCost`), so the plan counts it.
import { byLimit, type Check, type Exchange, type Owner, type TargetProfile, type TestCost } from '../../../harness/conformance/index.ts';
import type { Deployment, Source } from '../../../schemas/index.ts';
import type { CreateBody } from '../../../generators/control-plane/create-payloads.ts';
import { field, is2xx, revisionsPath } from './endpoints.ts';
import { acceptedCreate, creates, getDeployment, offered, pickSource, simpleBody, tryCreate } from './steps.ts';

interface Made {
  /** The create that made it (a rule about accepting that body judges it). */
  exchange: Exchange;
  /** Absent when the create was refused: nothing is handed on then. */
  id?: string;
  /** Its revisions listing read right after the create, before any test changed it (CP-REV-001 judges it); the run's deployments only. */
  firstListing?: Exchange;
}

/** A deployment the run hands to many tests costs its create and first revision, once per run. */
const ONCE_A_RUN: TestCost['creates'] = { deployments: 1, revisions: 1 };

/** The first of `candidates` the profile offers (pickSource's choice, known before the run for the plan). */
export const firstOffered = (profile: TargetProfile, candidates: readonly Source[]): Source | undefined => offered({ profile }, candidates)[0];

/**
 * The cost of a test on the deployments of kinds `keys` to which it adds `revisions`: where the
 * run shares, the run's deployments (each counted once per run in the plan) and the revisions;
 * otherwise deployments of its own. No key (the profile offers no source for it): one of its own.
 */
export function sharedCost(profile: TargetProfile, keys: string | undefined | readonly string[], revisions = 0): TestCost {
  const list = typeof keys === 'string' ? [keys] : (keys ?? []);
  const own = creates(Math.max(1, list.length), Math.max(1, list.length) + revisions);
  if (list.length === 0) return own;
  return byLimit(profile, { unlimited: own, limited: { creates: revisions > 0 ? { revisions } : {}, shared: Object.fromEntries(list.map((key) => [key, ONCE_A_RUN])) } });
}

/** `cost` and `deployments` of the test's own besides (each with its first revision). */
export const withOwn = (cost: TestCost, deployments: number): TestCost =>
  deployments === 0 ? cost : { ...cost, creates: { ...cost.creates, deployments: (cost.creates.deployments ?? 0) + deployments, revisions: (cost.creates.revisions ?? 0) + deployments } };

/** The deployment of kind `key` the room hands this test: made of `body` for the test, or the run's. */
async function handed(t: Check, key: string, body: () => CreateBody): Promise<{ made: Made; owner: Owner }> {
  const { value, owner } = await t.needs.one(key, (owner) => make(t, body(), owner), { keep: (made) => made.id !== undefined });
  return { made: value, owner };
}

/** A create of `body`; one the run owns also has its revisions listing read right after it, before any test changed it. */
async function make(t: Check, body: CreateBody, owner: Owner): Promise<Made> {
  const exchange = await tryCreate(t, body, owner);
  const id = field(exchange.response?.json, 'id');
  if (owner === 'test' || !is2xx(exchange) || typeof id !== 'string') return { exchange };
  // Read, not judged: the rule about what a create makes is CP-REV-001's, whichever test made it.
  return { exchange, id, firstListing: await t.cp.get(revisionsPath(id)) };
}

/** The create of a deployment of kind `key` (made of `body`): this test's own, or the run's (a refused create is not handed on). */
export async function sharedCreate(t: Check, key: string, body: () => CreateBody): Promise<Exchange> {
  return (await handed(t, key, body)).made.exchange;
}

/** The create of a deployment of kind `key` and its revisions listing as it was right after the create. */
export async function sharedFirstListing(t: Check, key: string, body: () => CreateBody): Promise<{ created: Deployment; listing: Exchange }> {
  const { made } = await handed(t, key, body);
  const created = acceptedCreate(t, made.exchange, 'a deployment');
  return { created, listing: made.firstListing ?? (await t.cp.get(revisionsPath(created.id))) };
}

/**
 * The create's answer for kind `key` (a step, like createDeployment: any 2xx with an id and a
 * latest_revision_id). It may be an earlier test's: the deployment has changed since
 * (sharedDeployment reads it as it is now).
 */
export async function sharedCreated(t: Check, key: string, body: () => CreateBody): Promise<Deployment> {
  return acceptedCreate(t, await sharedCreate(t, key, body), 'a deployment');
}


/**
 * A deployment of kind `key` the test goes on with, as it is now. The run's is read: the read
 * also tells the test which revision is the latest, so only revisions its own PATCHes add count
 * as created by it (harness/conformance/created.ts).
 */
export async function sharedDeployment(t: Check, key: string, body: () => CreateBody): Promise<Deployment> {
  return (await sharedDeploymentOf(t, key, body)).deployment;
}

/** sharedDeployment, and whose it is: the test's own (made with the values its body holds) or the run's (values another test may have changed). */
export async function sharedDeploymentOf(t: Check, key: string, body: () => CreateBody): Promise<{ deployment: Deployment; owner: Owner }> {
  const { made, owner } = await handed(t, key, body);
  const created = acceptedCreate(t, made.exchange, 'a deployment');
  return { deployment: owner === 'run' ? await getDeployment(t, created.id) : created, owner };
}

/** The kind and body of the simplest deployment of the first offered source among `candidates`. */
export function simpleKind(t: Check, candidates: readonly Source[], purpose?: string): [Source, () => CreateBody] {
  const source = pickSource(t, candidates, purpose);
  return [source, () => simpleBody(t, source, 'shared')];
}

/** The simplest deployment of the first offered source among `candidates`: the test's own, or the run's. */
export async function sharedSimple(t: Check, candidates: readonly Source[], purpose?: string): Promise<Deployment> {
  return sharedDeployment(t, ...simpleKind(t, candidates, purpose));
}

/** The run's simplest deployment of the first offered source among `candidates` where the run hands one to many tests; none where each test makes its own. */
export function runsSimple(t: Check, candidates: readonly Source[], purpose?: string): Promise<Deployment | undefined> {
  return t.needs.ifShared(() => sharedSimple(t, candidates, purpose));
}
