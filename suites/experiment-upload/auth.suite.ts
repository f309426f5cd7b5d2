// Authentication of the upload (spec 5): header x-api-key. The body is otherwise well-formed, so
// a refusal can only be about the key; any 4xx counts (error responses are not shown).
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { validUpload } from '../../generators/experiment-upload/upload.ts';
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { bodyOf, upload } from './support/upload.ts';

requirement('EU-AUTH-001', async (t: Check) => {
  const [c] = fc.sample(validUpload(), { numRuns: 1, seed: t.testSeed });
  const invalid = `apc-invalid-${randomBytes(12).toString('hex')}`;
  for (const [how, auth] of [['without an x-api-key header', 'none'], ['with an x-api-key that is not a valid key', { headers: { 'x-api-key': invalid } }]] as const) {
    const exchange = await upload(t, bodyOf(t, c!), auth);
    const status = exchange.response?.status ?? 0;
    t.expectOn(exchange, status >= 400 && status < 500, { message: `An upload ${how} was not refused with a 4xx status.`, expected: 'HTTP 4xx' });
  }
});
