// The whole control-plane suite passes the good reference implementation in self-hosted mode
// (hosted mode is the main job, certified whole in test/cli/certify-reference.test.ts): no false
// failure in either mode, and every requirement is checked or gated.
import { describe, expect, test } from 'vitest';
import { expectCertified } from '../../support/report-expectations.ts';
import { certifyReference } from './support/certify-reference.ts';

describe.each(['self-hosted'] as const)('the %s reference', (mode) => {
  test('is certified on every control-plane requirement', async () => {
    const run = await certifyReference({ mode, requirements: ['CP-*'], seed: 7, timeoutMs: 400_000 });
    expectCertified(run);
    const passed = run.report!.requirements.filter((r) => r.status === 'passed').length;
    // Most rules apply in either mode; the rest need the other mode's source kinds.
    expect(passed).toBeGreaterThan(90);
  }, 420_000);
});
