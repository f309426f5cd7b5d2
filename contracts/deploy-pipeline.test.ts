// deploy-pipeline's consumer tests (registered by importing consumer.ts, so they run first)
// write its two pacts; the control plane verifies each right after against the reference
// implementation in that mode, and the hosted one against a control plane that answers 200
// instead of 201 to a create.
import { describe, expect, it } from 'vitest';
import { CONSUMER, PROVIDERS } from './deploy-pipeline/consumer.ts';
import { failuresOf, verifyAgainstReference } from './verify-reference.ts';

describe('provider control plane verifies the deploy-pipeline pacts', () => {
  for (const { provider } of Object.values(PROVIDERS)) {
    it(`${provider}: passes against the reference implementation`, async () => {
      const results = await verifyAgainstReference(CONSUMER, provider);
      expect(failuresOf(results)).toEqual({});
      expect(results).toHaveLength(8);
    });
  }

  it('control-plane: fails when a create answers 200 instead of 201', async () => {
    const results = await verifyAgainstReference(CONSUMER, PROVIDERS.hosted.provider, {
      bend: {
        answer: (request, answer) => (request.method === 'POST' && answer.status === 201 ? { ...answer, status: 200 } : answer),
      },
    });
    const failed = failuresOf(results);
    expect(Object.keys(failed)).toEqual(['a request to create a deployment']);
    expect(failed['a request to create a deployment']!.join('\n')).toMatch(/expected 201 but was 200/i);
  });
});
