// agent-client's consumer tests (registered by importing consumer.ts, so they run first) write
// its pact; the agent server verifies it right after, against the reference implementation and
// against one that drops the `event:` lines.
import { describe, expect, it } from 'vitest';
import { CONSUMER, PROVIDER } from './agent-client/consumer.ts';
import { sharedReference } from '../test/support/shared-reference.ts';
import { failuresOf, verifyAgainstReference } from './verify-reference.ts';

describe('provider agent-server verifies the agent-client pact', () => {
  it('passes against the reference implementation, SSE checker included', async () => {
    // The run's shared reference: the image under testcontainers when APC_REFERENCE=container.
    expect(sharedReference().instance.kind).toBe(process.env.APC_REFERENCE ?? 'process');
    const results = await verifyAgainstReference(CONSUMER, PROVIDER);
    expect(failuresOf(results)).toEqual({});
    expect(results).toHaveLength(7);
  });

  it('fails when set-latest keeps the newer version active: the run that follows shows the newer context', async () => {
    const results = await verifyAgainstReference(CONSUMER, PROVIDER, { faults: ['as.set-latest-ignored'] });
    expect(Object.keys(failuresOf(results))).toEqual(['a run by assistant_id after version 1 was made active again']);
  });

  it('fails when the run stream has no event: lines, in Pact and in the SSE checker', async () => {
    const results = await verifyAgainstReference(CONSUMER, PROVIDER, {
      bend: {
        answer: (_request, answer) =>
          /event-stream/.test(answer.headers['content-type'] ?? '')
            ? { ...answer, body: Buffer.from(answer.body.toString('utf8').replace(/^event:[^\n]*\n/gm, '')) }
            : answer,
      },
    });
    const failed = failuresOf(results);
    // Both run interactions stream: each fails.
    expect(Object.keys(failed).sort()).toEqual(['a request to stream a run on a thread', 'a run by assistant_id after version 1 was made active again']);
    const problems = failed['a request to stream a run on a thread']!.join('\n');
    expect(problems).toMatch(/^\$: Expected 'data: [\s\S]*' to match/m);
    expect(problems).toContain('SSE checker: An event has a data line but no event line naming its kind.');
  });
});
