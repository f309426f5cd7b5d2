// agent-client's consumer tests (registered by importing consumer.ts, so they run first) write
// its pact; the agent server verifies it right after, against the reference implementation,
// against one that drops the `event:` lines, and against the open-source LangGraph JS server.
import { describe, expect, it } from 'vitest';
import { readPactFile } from '../harness/pact/pact-files.ts';
import { verifyPact } from '../harness/pact/verifier-process.ts';
import { buildProfile } from '../harness/profile/sources.ts';
import { CONSUMER, PROVIDER } from './agent-client/consumer.ts';
import { pactFile } from './pact-setup.ts';
import { sharedLangGraphServer } from '../test/langgraph-js/shared-server.ts';
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

  // Its one known deviation the contract sees: set latest changes only the version number, so the
  // run after it uses the newer version's context (AS-ASST-004, test/langgraph-js/expected-failures.yaml).
  // .ci/run runs this file again against the reference in a container; this verification does not
  // use the reference, and npm test has run it once already.
  const inContainerStep = process.env.APC_REFERENCE === 'container';
  const langGraph = 'fails against the LangGraph JS server only where it deviates: the run after set-latest';
  it.skipIf(inContainerStep)(
    inContainerStep ? `${langGraph} (skipped with APC_REFERENCE=container: it does not use the reference, and npm test ran it)` : langGraph,
    async () => {
      // The run's one server, which certify-langgraph.test.ts certifies too (shared-server.ts).
      const server = await sharedLangGraphServer();
      try {
        const profile = buildProfile({ agentServerUrl: server.url, agentServerHosting: 'self-run' }, {});
        const results = await verifyPact(readPactFile(pactFile(CONSUMER, PROVIDER)), { profile });
        expect(Object.keys(failuresOf(results))).toEqual(['a run by assistant_id after version 1 was made active again']);
        expect(results).toHaveLength(7);
      } finally {
        await server.release();
      }
    },
    240_000,
  );
});
