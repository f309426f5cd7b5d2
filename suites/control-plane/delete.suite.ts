// Deleting deployments (spec 4.1, 7): 204 with no body, then the deployment goes away for every
// endpoint; unknown ids are refused. Deletion may be asynchronous: until it is gone the
// deployment may still be read and listed with status AWAITING_DELETE (spec 3), within the
// profile's deletion bound (support/deletion.ts).
import { requirement, type Check, type Exchange, describeResponse, AWAITING_DELETE } from '../../harness/conformance/index.ts';
import { sharedCost } from './support/shared.ts';
import type { Deployment } from '../../schemas/index.ts';
import { stillListed, untilGone } from './support/deletion.ts';
import { createSimple, deploymentPath, expectRefused, field, patch, revisionsPath, statusOf, unknownId, pickSource, creates, refusedWaits } from './support/steps.ts';

/**
 * A deployment deleted for the test: CP-DEL-001 judges its DELETE and its going away, CP-DEL-005
 * reads it again. Each test makes its own where the run makes as many as it needs; where the
 * profile limits what the run creates, the room hands both tests the one deletion whichever made
 * it first (shared.ts), and keeps it when a test that read it fails (the deletion happened either way).
 */
const DELETED = 'deleted';
interface Deleted {
  id: string;
  name: string;
  deletion: Exchange;
}

async function deleted(t: Check): Promise<Deleted> {
  return (await t.needs.one(DELETED, () => deleteOne(t), { keepWhenFailed: true })).value;
}

async function someDeployment(t: Check): Promise<Deployment> {
  const source = pickSource(t, ['internal_container', 'gitforge', 'external_container', 'internal_source']);
  return createSimple(t, source, 'del');
}

requirement(['CP-DEL-001', 'CP-DEL-002'], async (t: Check) => {
  const { deletion: exchange, ...deployment } = await deleted(t);
  t.expectStatus(exchange, 204, { requirement: 'CP-DEL-001' });
  t.expectOn(exchange, exchange.response!.text.length === 0, { requirement: 'CP-DEL-001', message: 'DELETE answered 204 with a body.', expected: 'no body' });

  const gone = await untilGone(t, deployment.id);
  t.expectOn(gone.read, gone.gone, {
    requirement: 'CP-DEL-002',
    message: gone.gone ? '' : gone.why,
    expected: 'GET refused with a 4xx, after at most AWAITING_DELETE for a while',
  });
  expectRefused(t, gone.read, 'CP-DEL-002', 'the id of a deleted deployment');
  expectRefused(t, await t.cp.get(revisionsPath(deployment.id)), 'CP-DEL-002', 'the id of a deleted deployment');
  t.expectStatus(await patch(t, deployment.id, {}), 404, { requirement: 'CP-DEL-002', message: 'PATCH of a deleted deployment did not answer 404 (deployment id unknown).' });
  const queries: Record<string, string>[] = [{}, { name_contains: deployment.name }];
  for (const query of queries) {
    const listing = await stillListed(t, deployment.id, query);
    t.expect(listing === undefined, {
      requirement: 'CP-DEL-002',
      message: 'The deployments listing still shows a deleted deployment (other than AWAITING_DELETE for a while).',
      expected: `no deployment ${deployment.id}`,
      seen: listing && describeResponse(listing),
    });
  }
}, { cost: (p) => refusedWaits(sharedCost(p, DELETED), 0) });

requirement('CP-DEL-005', async (t: Check) => {
  const { id, deletion } = await deleted(t);
  // The DELETE is a step: its exact 204 is CP-DEL-001's rule, its going away CP-DEL-002's.
  t.needSuccess(deletion, { requirement: 'CP-DEL-001' });
  const gone = await untilGone(t, id);
  // Still AWAITING_DELETE at the bound: when it would go is CP-DEL-002's question. Anything else the GET answered is this rule's.
  t.needOn(gone.read, gone.gone || field(gone.read.response?.json, 'status') !== AWAITING_DELETE, { requirement: 'CP-DEL-002', message: gone.gone ? '' : gone.why });
  t.expectOn(gone.read, statusOf(gone.read) === 404, { message: 'GET of a deleted deployment did not answer 404.', expected: 'HTTP 404' });
}, { cost: (p) => refusedWaits(sharedCost(p, DELETED), 0) });

async function deleteOne(t: Check): Promise<Deleted> {
  const { id, name } = await someDeployment(t);
  return { id, name, deletion: await t.cp.delete(deploymentPath(id)) };
}

requirement('CP-DEL-003', async (t: Check) => {
  expectRefused(t, await t.cp.delete(deploymentPath(unknownId())), 'CP-DEL-003', 'an id no deployment has');
});

requirement('CP-DEL-004', async (t: Check) => {
  const deployment = await someDeployment(t);
  t.expectStatus(await t.cp.delete(deploymentPath(deployment.id), { query: { delete_tracing_project: true } }), 204);
}, { cost: refusedWaits(creates(1), 0) });
