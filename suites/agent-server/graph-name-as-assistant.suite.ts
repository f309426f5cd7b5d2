// A graph name in place of an assistant id (spec 4.2): the graph's default assistant runs.
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { createAssistant, expect2xx } from './support/assistants.ts';
import { createThread } from './support/threads.ts';
import { humanInput, replyContent, runRule } from './support/runs.ts';
import { runEcho } from './support/echo-ways.ts';

requirement(
  'AS-GRAPH-001',
  async (t: Check) => {
    const graph = t.profile.fixtures.graphId;
    const threadId = await createThread(t);
    const { id } = await createAssistant(t, { context: { apc_case: 'graph-name-control' } });
    for (const [where, thread] of [['without a thread', undefined], ['on a thread', threadId]] as const) {
      // The same run by an assistant's id first: a run that ignores its input is the run rule's failure (AS-RUN-001 or AS-RUN-003), not the graph name's.
      const control = t.name('by-assistant-id');
      const byId = await runEcho(t, { assistantId: id, ...(thread ? { threadId: thread } : {}), input: humanInput(control) });
      t.expect(replyContent(byId) === control, {
        requirement: runRule({ ...(thread ? { threadId: thread } : {}) }),
        message: `A run ${where} by assistant_id did not run the assistant on its input.`,
        expected: `the echo node replying ${JSON.stringify(control)}`,
        seen: byId,
      });
      const content = t.name('by-graph-name');
      const update = await runEcho(t, { assistantId: graph, ...(thread ? { threadId: thread } : {}), input: humanInput(content) }, 'AS-GRAPH-001');
      t.expect(replyContent(update) === content, {
        message: `A run ${where} with assistant_id "${graph}" (a graph name) did not run the fixture graph.`,
        expected: `the echo node replying ${JSON.stringify(content)}`,
        seen: update,
      });
    }
  },
  { cost: { creates: { assistants: 1, threads: 1, runs: 4 } }, timeout: 'stream' },
);

requirement('AS-GRAPH-002', async (t: Check) => {
  const graph = t.profile.fixtures.graphId;
  const exchange = await t.as.get(`/assistants/${encodeURIComponent(graph)}`);
  expect2xx(t, exchange, 'AS-GRAPH-002', `GET /assistants/${graph}`);
  const json = exchange.response?.json as Record<string, unknown> | undefined;
  t.expectOn(exchange, json?.graph_id === graph && typeof json.assistant_id === 'string', {
    message: `GET /assistants/${graph} did not return an assistant of that graph.`,
    expected: `an assistant with graph_id ${graph}`,
  });
});
