// Assistant versions (spec 3, 4.2): examples for each rule, then operation sequences checked
// against the pure model of generators/agent-server. Runs by assistant_id are observed through
// the fixture graph, which echoes the run's effective context in its update.
import { AS_SEQUENCES, assistantCommands, runAssistantCommands } from '../../generators/agent-server/assistant-commands.ts';
import { compareContext, sameJson, type JsonObject } from '../../generators/agent-server/payloads.ts';
import { requirement, type Check, describeResponse } from '../../harness/conformance/index.ts';
import { createAssistant, expect2xx, expect4xx, httpAssistantApi, searchIds } from './support/assistants.ts';
import { humanInput, runEcho } from './support/runs.ts';

/** Fails `rule` unless a run by assistant_id uses `expected` (and nothing only `others` had). */
async function expectRunContext(t: Check, assistantId: string, expected: JsonObject, others: JsonObject[], rule: string, when: string): Promise<void> {
  const update = await runEcho(t, { assistantId, input: humanInput('which context?') });
  const result = compareContext(update.context, expected, others);
  t.expect(result.ok, {
    requirement: rule,
    message: `${when}, a run by assistant_id used another context (missing or different: ${result.wrong.join(', ') || 'none'}; carried over: ${result.carried.join(', ') || 'none'}).`,
    expected,
    seen: update.context,
  });
}

/** PATCH with a whole new context. Relies on AS-ASST-003: the new version holds exactly that context. */
async function update(t: Check, id: string, context: JsonObject): Promise<JsonObject> {
  const exchange = await t.as.patch(`/assistants/${id}`, { context });
  expect2xx(t, exchange, 'AS-ASST-003', `Updating assistant ${id} (PATCH /assistants/${id})`);
  const updated = exchange.response!.json as JsonObject;
  t.expect(sameJson(updated.context, context), {
    requirement: 'AS-ASST-003',
    message: 'PATCH did not answer with an assistant holding exactly the supplied context (nothing merged from earlier versions).',
    expected: context,
    seen: updated.context,
  });
  return updated;
}

async function setLatest(t: Check, id: string, version: number, rule: string): Promise<void> {
  expect2xx(t, await t.as.post(`/assistants/${id}/latest`, { version }), rule, `Setting version ${version} of assistant ${id} as latest`);
}

const V1 = { apc_v1_only: 'first', shared: 1 };
const V2 = { apc_v2_only: true, shared: 2 };
const V3 = { apc_v3_only: [3], shared: 3 };

requirement('AS-ASST-001', async (t: Check) => {
  const name = t.name('assistant');
  const context = { greeting: 'héllo', nested: { list: [1, 'two', null] } };
  const created = await createAssistant(t, { context, name, metadata: { apc_purpose: 'create' } });
  t.expectSchema(created.exchange, 'Assistant', { requirement: 'AS-ASST-001' });
  const body = created.body;
  const seen = describeResponse(created.exchange);
  t.expect(body.graph_id === t.profile.fixtures.graphId, { message: 'The created assistant does not carry the graph_id sent.', expected: t.profile.fixtures.graphId, seen });
  t.expect(body.name === name, { message: 'The created assistant does not carry the name sent.', expected: name, seen });
  t.expect(sameJson(body.context, context), { message: 'The created assistant does not carry the context sent.', expected: context, seen });
  const metadata = body.metadata as JsonObject;
  t.expect(metadata.apc_purpose === 'create', { message: 'The created assistant does not carry the metadata sent.', expected: 'metadata with apc_purpose: create', seen });
}, { cost: { creates: { assistants: 1 } } });

requirement('AS-ASST-002', async (t: Check) => {
  const { id } = await createAssistant(t, { context: V1 });
  await expectRunContext(t, id, V1, [], 'AS-ASST-002', 'Right after creation');
  await setLatest(t, id, 1, 'AS-ASST-002');
  await expectRunContext(t, id, V1, [], 'AS-ASST-002', 'After setting version 1 as latest');
  // Version 1 is the first version, not the one an update adds.
  await update(t, id, V2);
  await setLatest(t, id, 1, 'AS-ASST-002');
  await expectRunContext(t, id, V1, [V2], 'AS-ASST-002', 'After an update and setting version 1 back as latest');
}, { cost: { creates: { assistants: 1, runs: 3 } } });

requirement('AS-ASST-003', async (t: Check) => {
  const { id } = await createAssistant(t, { context: V1 });
  await update(t, id, V2);
  await expectRunContext(t, id, V2, [V1], 'AS-ASST-003', 'After an update');
  // An empty context is a whole configuration too: nothing of version 2 may remain.
  await update(t, id, {});
  await expectRunContext(t, id, {}, [V1, V2], 'AS-ASST-003', 'After an update to an empty context');
}, { cost: { creates: { assistants: 1, runs: 2 } } });

requirement('AS-ASST-004', async (t: Check) => {
  const { id } = await createAssistant(t, { context: V1 });
  // Version numbers start at 1 (AS-ASST-002's rule): setting version 1 runs the first context.
  await setLatest(t, id, 1, 'AS-ASST-002');
  const first = compareContext((await runEcho(t, { assistantId: id, input: humanInput('which context?') })).context, V1, []);
  t.need(first.ok, { requirement: 'AS-ASST-002', message: 'Setting version 1 as latest did not run the context the assistant was created with.', expected: V1 });
  await update(t, id, V2);
  await update(t, id, V3);
  for (const [version, context] of [[2, V2], [1, V1], [3, V3]] as const) {
    await setLatest(t, id, version, 'AS-ASST-004');
    await expectRunContext(t, id, context, [V1, V2, V3].filter((c) => c !== context), 'AS-ASST-004', `After setting version ${version} as latest`);
  }
}, { cost: { creates: { assistants: 1, runs: 4 } } });

requirement('AS-ASST-005', async (t: Check) => {
  const tag = t.name('deleted');
  const { id } = await createAssistant(t, { context: V1, metadata: { apc_case: tag } });
  await update(t, id, V2);
  expect2xx(t, await t.as.delete(`/assistants/${id}`), 'AS-ASST-005', `Deleting assistant ${id}`);
  for (const version of [1, 2]) {
    expect4xx(t, await t.as.post(`/assistants/${id}/latest`, { version }), 'AS-ASST-005', `After deleting the assistant, setting its version ${version} as latest`);
  }
  const listed = await searchIds(t, { metadata: { apc_case: tag } });
  t.expect(!listed.includes(id), { message: 'Search still lists the deleted assistant.', expected: 'no assistant', seen: listed });
}, { cost: { creates: { assistants: 1 } } });

requirement('AS-ASST-007', async (t: Check) => {
  const exchange = await t.as.post('/assistants', { name: t.name('no-graph'), context: {} });
  const json = exchange.response?.json as JsonObject | undefined;
  if (typeof json?.assistant_id === 'string') t.cleanup('delete assistant created without graph_id', () => t.as.delete(`/assistants/${json.assistant_id as string}`));
  expect4xx(t, exchange, 'AS-ASST-007', 'POST /assistants without graph_id');
});

requirement(
  ['AS-ASST-001', 'AS-ASST-002', 'AS-ASST-003', 'AS-ASST-004', 'AS-ASST-005', 'AS-SRCH-001', 'AS-SRCH-002'],
  async (t: Check) => {
    await t.property(assistantCommands(AS_SEQUENCES.maxCommands), async (commands) => {
      // A sequence that agrees with the model is a check of every rule of the test; a mismatch fails its own rule.
      await t.expectModelAgrees(() => runAssistantCommands(httpAssistantApi(t), commands));
    });
  },
  { cost: (p) => ({ creates: { assistants: AS_SEQUENCES.runs(p.runs) * AS_SEQUENCES.maxCommands, runs: AS_SEQUENCES.runs(p.runs) * AS_SEQUENCES.maxCommands } }), title: 'Any sequence of create, update, set-latest, delete, search and run agrees with the model of assistant versions' },
);
