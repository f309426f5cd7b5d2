// The deployment's own API reference (spec 1.B, 4.2): GET /docs. Its format is not shown, so
// only that a non-empty document is served is checked.
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { expect2xx } from './support/assistants.ts';

requirement('AS-DOCS-001', async (t: Check) => {
  const exchange = await t.as.get('/docs', { headers: { Accept: 'text/html, application/json;q=0.9, */*;q=0.8' } });
  expect2xx(t, exchange, 'AS-DOCS-001', 'GET /docs');
  t.expectOn(exchange, (exchange.response?.text.trim().length ?? 0) > 0, { message: 'GET /docs answered with an empty body.', expected: 'an API reference document' });
});
