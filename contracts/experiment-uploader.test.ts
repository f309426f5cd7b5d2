// experiment-uploader's consumer tests (registered by importing consumer.ts, so they run first)
// write its pact; the experiment upload endpoint verifies it right after, against the reference
// implementation and against one that accepts rows outside the experiment window.
import { describe, expect, it } from 'vitest';
import { CONSUMER, PROVIDER } from './experiment-uploader/consumer.ts';
import { failuresOf, verifyAgainstReference } from './verify-reference.ts';

describe('provider experiment-upload verifies the experiment-uploader pact', () => {
  it('passes against the reference implementation', async () => {
    const results = await verifyAgainstReference(CONSUMER, PROVIDER);
    expect(failuresOf(results)).toEqual({});
    expect(results).toHaveLength(3);
  });

  it('fails when a row outside the experiment window is accepted', async () => {
    const results = await verifyAgainstReference(CONSUMER, PROVIDER, { faults: ['eu.no-window-check'] });
    const failed = failuresOf(results);
    expect(Object.keys(failed)).toEqual(['an upload with a row that starts before the experiment window']);
    expect(failed['an upload with a row that starts before the experiment window']!.join('\n')).toMatch(/status/i);
  });
});
