// Deleting deployments (spec 4.1, 7): 204 with no body, then the deployment is gone for every
// endpoint; unknown ids are refused.
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { describeResponse } from '../../harness/http/curl.ts';
import type { Deployment } from '../../schemas/index.ts';
import { createSimple, DEPLOYMENTS, deploymentPath, expectRefused, offered, patch, revisionsPath, statusOf, unknownId, pickSource, creates } from './support/steps.ts';

async function someDeployment(t: Check): Promise<Deployment> {
  const source = pickSource(t, ['internal_container', 'gitforge', 'external_container', 'internal_source']);
  return createSimple(t, source, 'del');
}

requirement(['CP-DEL-001', 'CP-DEL-002'], async (t: Check) => {
  const deployment = await someDeployment(t);
  const exchange = await t.cp.delete(deploymentPath(deployment.id));
  t.expectStatus(exchange, 204, { requirement: 'CP-DEL-001' });
  t.expect(exchange.response!.text.length === 0, { requirement: 'CP-DEL-001', message: 'DELETE answered 204 with a body.', expected: 'no body', seen: describeResponse(exchange) });

  const read = await t.cp.get(deploymentPath(deployment.id));
  expectRefused(t, read, 'CP-DEL-002', 'the id of a deleted deployment');
  expectRefused(t, await t.cp.get(revisionsPath(deployment.id)), 'CP-DEL-002', 'the id of a deleted deployment');
  t.expectStatus(await patch(t, deployment.id, {}), 404, { requirement: 'CP-DEL-002', message: 'PATCH of a deleted deployment did not answer 404 (deployment id unknown).' });
  for (const query of [{}, { name_contains: deployment.name }]) {
    const listing = await t.cp.get(DEPLOYMENTS, { query });
    t.expect(!listing.response?.text.includes(deployment.id), {
      requirement: 'CP-DEL-002',
      message: 'The deployments listing still shows a deleted deployment.',
      expected: `no deployment ${deployment.id}`,
      seen: describeResponse(listing),
    });
  }
}, { cost: creates(1) });

requirement('CP-DEL-005', async (t: Check) => {
  const deployment = await someDeployment(t);
  // The DELETE is a step: its exact 204 is CP-DEL-001's rule.
  t.needSuccess(await t.cp.delete(deploymentPath(deployment.id)), { requirement: 'CP-DEL-001' });
  const read = await t.cp.get(deploymentPath(deployment.id));
  t.expect(statusOf(read) === 404, { message: 'GET of a deleted deployment did not answer 404.', expected: 'HTTP 404', seen: describeResponse(read) });
}, { cost: creates(1) });

requirement('CP-DEL-003', async (t: Check) => {
  expectRefused(t, await t.cp.delete(deploymentPath(unknownId())), 'CP-DEL-003', 'an id no deployment has');
});

requirement('CP-DEL-004', async (t: Check) => {
  const deployment = await someDeployment(t);
  t.expectStatus(await t.cp.delete(deploymentPath(deployment.id), { query: { delete_tracing_project: true } }), 204);
}, { cost: creates(1) });
