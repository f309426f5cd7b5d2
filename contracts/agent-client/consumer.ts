// Consumer tests of agent-client against the agent server: each interaction asserts only what
// the client uses, with matchers where the provider picks the value. Imported by
// ../agent-client.test.ts, which verifies the written pact right after.
import { HTTPResponseStatusClass, MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { answered, consumerPact, reliesOn, textResponseBody } from '../pact-setup.ts';
import { AgentClient } from './client.ts';
import { ACTIVE_VERSION_RUN_EXAMPLE, ACTIVE_VERSION_RUN_PATTERN, RUN_STREAM_EXAMPLE, RUN_STREAM_PATTERN } from './run-stream.ts';

const { fromProviderState, eachLike, matchStatus, regex, string, uuid } = MatchersV3;

export const CONSUMER = 'agent-client';
export const PROVIDER = 'agent-server';

const KEY = 'example-agent-key';
const ASSISTANT = '6f7c2a0e-8d1b-4c3e-9f2a-1b2c3d4e5f60';
const THREAD = '0b9e1f4a-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const TAG = 'agent-client-example';
const ok = () => matchStatus(200, HTTPResponseStatusClass.Success);
const headers = { 'X-Api-Key': regex('^.+$', KEY), 'Content-Type': 'application/json' };

/** The run request agent-client sends on a thread: one message to the assistant, updates streamed. */
function runRequest(b: { headers(headers: Record<string, unknown>): { jsonBody(body: unknown): unknown } }): void {
  b.headers({ ...headers, Accept: 'text/event-stream' }).jsonBody({
    assistant_id: fromProviderState('${assistantId}', ASSISTANT),
    input: { messages: [{ type: 'human', content: 'hello' }] },
    stream_mode: 'updates',
  });
}

/** An event-stream answer whose whole body must match `pattern` (Pact has no SSE support). */
function eventStream(b: { headers(headers: Record<string, unknown>): unknown; matchingRules(rules: unknown): unknown }, pattern: string, example: string): void {
  b.headers({ 'Content-Type': regex('^text/event-stream(;.*)?$', 'text/event-stream') });
  textResponseBody(b, 'text/event-stream', example);
  b.matchingRules({ body: { path: '$', rules: [regex(pattern, example)] } });
}

describe('consumer agent-client → agent-server', () => {
  const pact = consumerPact(CONSUMER, PROVIDER);

  it('creates an assistant', async () => {
    await pact
      .addInteraction()
      .given('a tag for new resources')
      .uponReceiving('a request to create an assistant')
      .comment(reliesOn('AS-ASST-001'))
      .withRequest('POST', '/assistants', (b) =>
        b.headers(headers).jsonBody({ graph_id: 'echo', name: 'support-bot', context: { tone: 'brief' }, metadata: { tag: fromProviderState('${tag}', TAG) } }),
      )
      .willRespondWith(ok(), (b) =>
        b.jsonBody({ assistant_id: uuid(ASSISTANT), graph_id: 'echo', name: 'support-bot', context: { tone: 'brief' } }),
      )
      .executeTest(answered(pact, async (server) => {
        const assistant = await new AgentClient(server.url, KEY).createAssistant('echo', 'support-bot', { tone: 'brief' }, { tag: TAG });
        expect(assistant.assistant_id).toBe(ASSISTANT);
      }));
  });

  it('updates an assistant', async () => {
    await pact
      .addInteraction()
      .given('an assistant exists')
      .uponReceiving("a request to replace an assistant's context")
      .comment(reliesOn('AS-ASST-003'))
      .withRequest('PATCH', fromProviderState('/assistants/${assistantId}', `/assistants/${ASSISTANT}`), (b) =>
        b.headers(headers).jsonBody({ context: { tone: 'detailed' } }),
      )
      .willRespondWith(ok(), (b) => b.jsonBody({ assistant_id: uuid(ASSISTANT), context: { tone: 'detailed' } }))
      .executeTest(answered(pact, async (server) => {
        const assistant = await new AgentClient(server.url, KEY).updateAssistant(ASSISTANT, { tone: 'detailed' });
        expect(assistant.context).toEqual({ tone: 'detailed' });
      }));
  });

  it('sets the latest version', async () => {
    await pact
      .addInteraction()
      .given('an assistant with two versions exists')
      .uponReceiving('a request to make version 1 the active version')
      // Its answer shows nothing of the active version: the run below is what relies on AS-ASST-002/004.
      .withRequest('POST', fromProviderState('/assistants/${assistantId}/latest', `/assistants/${ASSISTANT}/latest`), (b) =>
        b.headers(headers).jsonBody({ version: 1 }),
      )
      .willRespondWith(ok(), (b) => b.jsonBody({ assistant_id: uuid(ASSISTANT) }))
      .executeTest(answered(pact, async (server) => {
        const assistant = await new AgentClient(server.url, KEY).setLatestVersion(ASSISTANT, 1);
        expect(assistant.assistant_id).toBe(ASSISTANT);
      }));
  });

  it('runs the version made active again', async () => {
    await pact
      .addInteraction()
      .given('version 1 of an updated assistant was made active again, and a thread exists')
      .uponReceiving('a run by assistant_id after version 1 was made active again')
      .comment(reliesOn('AS-ASST-002', 'AS-ASST-004'))
      .withRequest('POST', fromProviderState('/threads/${threadId}/runs/stream', `/threads/${THREAD}/runs/stream`), runRequest)
      .willRespondWith(200, (b) => eventStream(b, ACTIVE_VERSION_RUN_PATTERN, ACTIVE_VERSION_RUN_EXAMPLE))
      .executeTest(answered(pact, async (server) => {
        const run = await new AgentClient(server.url, KEY).streamRun(THREAD, ASSISTANT, 'hello');
        expect(run.updates[0]?.echo?.context).toEqual({ tone: 'brief' });
      }));
  });

  it('searches assistants by metadata', async () => {
    await pact
      .addInteraction()
      .given('an assistant exists')
      .uponReceiving('a request to search assistants by metadata')
      .comment(reliesOn('AS-SRCH-001', 'AS-SRCH-002'))
      .withRequest('POST', '/assistants/search', (b) => b.headers(headers).jsonBody({ metadata: { tag: fromProviderState('${tag}', TAG) }, limit: 10 }))
      .willRespondWith(ok(), (b) => b.jsonBody(eachLike({ assistant_id: uuid(ASSISTANT), name: string('support-bot') })))
      .executeTest(answered(pact, async (server) => {
        const found = await new AgentClient(server.url, KEY).searchAssistants({ tag: TAG }, 10);
        expect(found.map((a) => a.assistant_id)).toEqual([ASSISTANT]);
      }));
  });

  it('creates a thread', async () => {
    await pact
      .addInteraction()
      .uponReceiving('a request to create a thread')
      .comment(reliesOn('AS-THR-001'))
      .withRequest('POST', '/threads', (b) => b.headers(headers).jsonBody({}))
      .willRespondWith(ok(), (b) => b.jsonBody({ thread_id: uuid(THREAD) }))
      .executeTest(answered(pact, async (server) => {
        expect(await new AgentClient(server.url, KEY).createThread()).toBe(THREAD);
      }));
  });

  it('streams a run on a thread', async () => {
    await pact
      .addInteraction()
      .given('an assistant and a thread exist')
      .uponReceiving('a request to stream a run on a thread')
      .comment(reliesOn('AS-RUN-001', 'AS-SSE-001', 'AS-SSE-002', 'AS-SSE-003', 'AS-SSE-004', 'AS-SSE-006', 'AS-SSE-009'))
      .withRequest('POST', fromProviderState('/threads/${threadId}/runs/stream', `/threads/${THREAD}/runs/stream`), runRequest)
      .willRespondWith(200, (b) => eventStream(b, RUN_STREAM_PATTERN, RUN_STREAM_EXAMPLE))
      .executeTest(answered(pact, async (server) => {
        const run = await new AgentClient(server.url, KEY).streamRun(THREAD, ASSISTANT, 'hello');
        expect(run.runId).toBe('1f0c8a52-3b6e-4d2a-9e1f-2a3b4c5d6e7f');
        expect(run.updates).toEqual([{ echo: { messages: [{ type: 'ai', content: 'hello' }] } }]);
      }));
  });
});
