// Assistant versions (spec 3, 4.2): examples for each rule, then operation sequences checked
// against the pure model of generators/agent-server. Runs by assistant_id are observed through
// the fixture graph, which echoes the run's effective context in its update.
import { AS_SEQUENCES, assistantCommands, runAssistantCommands } from '../../generators/agent-server/assistant-commands.ts';
import { compareContext, sameJson, type JsonObject } from '../../generators/agent-server/payloads.ts';
import { requirement, type Check, describeResponse } from '../../harness/conformance/index.ts';
import { createAssistant, expect2xx, expect4xx, httpAssistantApi, is2xx, searchIds } from './support/assistants.ts';
import { humanInput } from './support/runs.ts';
import { tryEcho } from './support/echo-ways.ts';
import { tryCreateThread } from './support/threads.ts';

/**
 * Fails `rule` unless runs by assistant_id use `expected` (and nothing only `others` had), on a
 * stateless run and on a run on `threadId` (spec 3: "runs by assistant_id use it", both kinds).
 * A kind of run that shows no echo at all is left out; when neither does, the test stops at the
 * rule the stateless run broke, after `unread` (the part of a rule that needs no run). As a
 * `need`, a wrong context names `rule` without judging it.
 */
async function expectRunContext(
  t: Check,
  at: { assistantId: string; threadId: string | undefined },
  expected: JsonObject,
  others: JsonObject[],
  rule: string,
  when: string,
  as: 'check' | 'need' = 'check',
  unread?: () => Promise<unknown>,
): Promise<void> {
  const kinds = [{ kind: 'stateless run' }, ...(at.threadId ? [{ kind: 'thread run', threadId: at.threadId }] : [])];
  const tried = await Promise.all(kinds.map(async ({ kind, threadId }) => ({ kind, echoed: await tryEcho(t, { assistantId: at.assistantId, input: humanInput('which context?'), ...(threadId ? { threadId } : {}) }) })));
  const seen = tried.flatMap(({ kind, echoed }) => ('update' in echoed ? [{ kind, update: echoed.update }] : []));
  if (seen.length === 0 && 'refused' in tried[0]!.echoed) {
    await unread?.();
    t.fail(tried[0]!.echoed.refused);
  }
  for (const { kind, update } of seen) {
    const result = compareContext(update.context, expected, others);
    const spec = {
      requirement: rule,
      message: `${when}, a ${kind} by assistant_id used another context (missing or different: ${result.wrong.join(', ') || 'none'}; carried over: ${result.carried.join(', ') || 'none'}).`,
      expected,
      seen: update.context,
    };
    if (as === 'need') t.need(result.ok, spec);
    else t.expect(result.ok, spec);
  }
}

/** An assistant with `context`, and a thread to run it on (none when threads cannot be made: runs are then judged stateless). */
async function subject(t: Check, context: JsonObject): Promise<{ assistantId: string; threadId: string | undefined }> {
  const { id } = await createAssistant(t, { context });
  return { assistantId: id, threadId: await tryCreateThread(t) };
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

/** Deletes the assistant `id` of `versions` versions: none of them can be set latest after, and a search by `tag` no longer lists it. */
async function expectDeleted(t: Check, id: string, versions: number, tag: string): Promise<void> {
  expect2xx(t, await t.as.delete(`/assistants/${id}`), 'AS-ASST-005', `Deleting assistant ${id}`);
  for (let version = 1; version <= versions; version += 1) {
    expect4xx(t, await t.as.post(`/assistants/${id}/latest`, { version }), 'AS-ASST-005', `After deleting the assistant, setting its version ${version} as latest`);
  }
  const listed = await searchIds(t, { metadata: { apc_case: tag } });
  t.expect(!listed.includes(id), { message: 'Search still lists the deleted assistant.', expected: `no assistant ${id}`, seen: listed });
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
  const at = await subject(t, V1);
  const id = at.assistantId;
  await expectRunContext(t, at, V1, [], 'AS-ASST-002', 'Right after creation');
  await setLatest(t, id, 1, 'AS-ASST-002');
  await expectRunContext(t, at, V1, [], 'AS-ASST-002', 'After setting version 1 as latest');
  // Version 1 is the first version, not the one an update adds.
  await update(t, id, V2);
  await setLatest(t, id, 1, 'AS-ASST-002');
  await expectRunContext(t, at, V1, [V2], 'AS-ASST-002', 'After an update and setting version 1 back as latest');
}, { cost: { creates: { assistants: 1, threads: 1, runs: 6 } } });

requirement('AS-ASST-003', async (t: Check) => {
  const at = await subject(t, V1);
  // What an update makes is judged on runs that use an assistant's context at all (AS-ASST-002's rule).
  // When no run shows its context (a stream broken by another rule), the PATCH answer, the half of
  // this rule that needs no run, is still judged before the test stops at that rule: spec 4.2 lists
  // no other way to read a run's result or an assistant's versions.
  await expectRunContext(t, at, V1, [], 'AS-ASST-002', 'Right after creation', 'need', () => update(t, at.assistantId, V2));
  await update(t, at.assistantId, V2);
  await expectRunContext(t, at, V2, [V1], 'AS-ASST-003', 'After an update');
  // An empty context is a whole configuration too: nothing of version 2 may remain.
  await update(t, at.assistantId, {});
  await expectRunContext(t, at, {}, [V1, V2], 'AS-ASST-003', 'After an update to an empty context');
}, { cost: { creates: { assistants: 1, threads: 1, runs: 6 } } });

requirement('AS-ASST-004', async (t: Check) => {
  const at = await subject(t, V1);
  const id = at.assistantId;
  // Version numbers start at 1 (AS-ASST-002's rule): setting version 1 runs the first context.
  await setLatest(t, id, 1, 'AS-ASST-002');
  await expectRunContext(t, at, V1, [], 'AS-ASST-002', 'After setting version 1 as latest', 'need');
  await update(t, id, V2);
  await update(t, id, V3);
  for (const [version, context] of [[2, V2], [1, V1], [3, V3]] as const) {
    await setLatest(t, id, version, 'AS-ASST-004');
    await expectRunContext(t, at, context, [V1, V2, V3].filter((c) => c !== context), 'AS-ASST-004', `After setting version ${version} as latest`);
  }
}, { cost: { creates: { assistants: 1, threads: 1, runs: 8 } } });

requirement('AS-ASST-005', async (t: Check) => {
  const tag = t.name('deleted');
  // An assistant made for the deletion alone: the rule is judged whatever an update does (AS-ASST-003's rule).
  const { id } = await createAssistant(t, { context: V1, metadata: { apc_case: tag } });
  await expectDeleted(t, id, 1, tag);
  // All versions: an assistant with a second version, when an update makes one.
  const updated = await createAssistant(t, { context: V1, metadata: { apc_case: tag } });
  if (is2xx(await t.as.patch(`/assistants/${updated.id}`, { context: V2 }))) await expectDeleted(t, updated.id, 2, tag);
}, { cost: { creates: { assistants: 2 } } });

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
      // A sequence that agrees with the model is a check of the rules its commands judged on something
      // there to judge (paging on a non-empty listing, say); a mismatch fails its own rule.
      const judged = new Set<string>();
      await t.expectModelAgrees(() => runAssistantCommands(httpAssistantApi(t), commands, judged), { judged });
      // Each sequence tags its assistants with a tag of its own, so sequences run side by side: one
      // after another, 25 sequences of POSTs outlast the property's time limit on a target whose
      // POSTs take seconds, which failed a conforming target as "not verified".
    }, { sideBySide: true });
  },
  { cost: (p) => ({ creates: { assistants: AS_SEQUENCES.runs(p.runs) * AS_SEQUENCES.maxCommands, runs: AS_SEQUENCES.runs(p.runs) * AS_SEQUENCES.maxCommands } }), title: 'Any sequence of create, update, set-latest, delete, search and run agrees with the model of assistant versions' },
);
