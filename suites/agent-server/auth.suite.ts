// Authentication of a platform-hosted agent server (spec 5): X-Api-Key is required. Each request
// is otherwise valid, so a refusal can only be about the key. Any 4xx counts: the spec shows no
// error responses of the agent server.
import { randomBytes } from 'node:crypto';
import { requirement, type Check, type Auth, type Exchange } from '../../harness/conformance/index.ts';
import { expect4xx } from './support/assistants.ts';

async function refusedEverywhere(t: Check, auth: Auth, rule: string, how: string): Promise<void> {
  const graph = t.profile.fixtures.graphId;
  const attempts: [string, () => Promise<Exchange>][] = [
    ['POST /assistants', () => t.as.post('/assistants', { graph_id: graph, name: t.name('unauthenticated'), context: {} }, { auth })],
    ['POST /assistants/search', () => t.as.post('/assistants/search', { limit: 1 }, { auth })],
    ['POST /threads', () => t.as.post('/threads', {}, { auth })],
    ['POST /runs/stream', async () => {
      const answer = await t.stream(t.as, { method: 'POST', path: '/runs/stream', body: { assistant_id: graph, input: { messages: [] }, stream_mode: 'updates' }, auth });
      return 'events' in answer ? answer.exchange : answer;
    }],
  ];
  for (const [what, attempt] of attempts) {
    const exchange = await attempt();
    const json = exchange.response?.json as Record<string, unknown> | undefined;
    if (typeof json?.assistant_id === 'string') t.cleanup('delete an assistant created without a valid key', () => t.as.delete(`/assistants/${json.assistant_id as string}`));
    expect4xx(t, exchange, rule, `${what} ${how}`);
  }
}

requirement('AS-AUTH-001', async (t: Check) => {
  await refusedEverywhere(t, 'none', 'AS-AUTH-001', 'without an X-Api-Key header');
}, { timeout: 'stream' });

requirement('AS-AUTH-002', async (t: Check) => {
  const invalid = `apc-invalid-${randomBytes(12).toString('hex')}`;
  await refusedEverywhere(t, { headers: { 'X-Api-Key': invalid } }, 'AS-AUTH-002', 'with an X-Api-Key that is not a valid key');
}, { timeout: 'stream' });
