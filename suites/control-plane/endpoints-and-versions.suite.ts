// Versioned paths and the other endpoint groups (spec 1.A, 4.1, 9): deployments under /v2/,
// integrations under /v1/, listeners under /v2/.
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { DEPLOYMENTS, is2xx } from './support/steps.ts';

const INTEGRATIONS = '/v1/integrations/gitforge/install';
const LISTENERS = '/v2/listeners';

requirement('CP-VER-001', async (t: Check) => {
  t.expectStatus(await t.cp.get(DEPLOYMENTS), 200);
});

requirement('CP-VER-002', async (t: Check) => {
  const exchange = await t.cp.get(INTEGRATIONS);
  t.expectOn(exchange, is2xx(exchange), { message: `GET ${INTEGRATIONS} did not answer 2xx.`, expected: 'HTTP 2xx' });
});

requirement('CP-VER-003', async (t: Check) => {
  const exchange = await t.cp.get(LISTENERS);
  t.expectOn(exchange, is2xx(exchange), { message: `GET ${LISTENERS} did not answer 2xx.`, expected: 'HTTP 2xx' });
});

requirement('CP-VER-004', async (t: Check) => {
  t.expectSchema(await t.cp.get(INTEGRATIONS), 'IntegrationList');
});

requirement('CP-VER-005', async (t: Check) => {
  t.expectSchema(await t.cp.get(LISTENERS), 'ListenerList');
});
