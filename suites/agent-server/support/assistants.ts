// Assistants over HTTP for the suites: creation with run-prefixed names and tags and a cleanup,
// and the AssistantApi the model-based sequences (generators/agent-server) drive.
import type { AssistantApi } from '../../../generators/agent-server/assistant-commands.ts';
import type { AssistantDraft, JsonObject } from '../../../generators/agent-server/payloads.ts';
import type { Check, Exchange } from '../../../harness/conformance/index.ts';
import { runEcho } from './echo-ways.ts';
import { isObject } from '../../../schemas/is-object.ts';

/** Metadata key holding the run's prefix on everything a run creates, so leftovers can be found. */
export const RUN_TAG = 'apc_run';

export interface CreatedAssistant {
  id: string;
  exchange: Exchange;
  body: JsonObject;
}


export function is2xx(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  return status !== undefined && status >= 200 && status < 300;
}

export function is4xx(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  return status !== undefined && status >= 400 && status < 500;
}

// Every helper names the requirement whose rule its request relies on. In a test of that
// requirement it is a check of it; in any other test it is a step, whose failure blocks the
// test's own requirements and fails only the one it names.

/** Checks `requirement`: the exchange succeeded (the spec shows no exact status: any 2xx). */
export function expect2xx(t: Check, exchange: Exchange, requirement: string, what: string): void {
  t.expectOn(exchange, is2xx(exchange), { requirement, message: `${what} failed.`, expected: 'HTTP 2xx' });
}

/** Checks `requirement`: the exchange was refused with a 4xx (the spec shows no exact status). */
export function expect4xx(t: Check, exchange: Exchange, requirement: string, what: string): void {
  t.expectOn(exchange, is4xx(exchange), { requirement, message: `${what} was not refused with a 4xx status.`, expected: 'HTTP 4xx' });
}

/** The metadata every assistant of this run carries, plus extra entries. */
export function runMetadata(t: Check, extra: JsonObject = {}): JsonObject {
  return { ...extra, [RUN_TAG]: t.run.runId };
}

/** POST /assistants (of the fixture graph unless another is named); registers its deletion. Relies on AS-ASST-001. */
export async function createAssistant(t: Check, draft: { context: JsonObject; metadata?: JsonObject; name?: string; graphId?: string }): Promise<CreatedAssistant> {
  const requirement = 'AS-ASST-001';
  const body = {
    graph_id: draft.graphId ?? t.profile.fixtures.graphId,
    name: draft.name ?? t.name('assistant'),
    context: draft.context,
    metadata: runMetadata(t, draft.metadata),
  };
  const exchange = await t.as.post('/assistants', body);
  expect2xx(t, exchange, requirement, 'Creating an assistant (POST /assistants)');
  const json = exchange.response?.json;
  const id = isObject(json) ? json.assistant_id : undefined;
  t.expectOn(exchange, typeof id === 'string' && id.length > 0, { requirement, message: 'The created assistant has no assistant_id.', expected: 'an Assistant with assistant_id' });
  t.cleanup(`delete assistant ${id}`, () => t.as.delete(`/assistants/${id}`));
  return { id, exchange, body: json as JsonObject };
}

/**
 * POST /assistants/search: the listed assistants' ids. Relies on AS-SRCH-001; with `within`, also
 * on its filter: a search by this test's tag that lists other assistants fails AS-SRCH-001 once,
 * and blocks the paging and order rules judged on top of it.
 */
export async function searchIds(t: Check, body: JsonObject, within?: string[]): Promise<string[]> {
  return (await searchAssistants(t, body, within)).map((a) => a.assistant_id);
}

/** Assistants as a search failure shows them: each id with the metadata the filter compares. */
export type ListedAssistant = { assistant_id: string; metadata: unknown };

/** As searchIds, with each listed assistant's metadata (the evidence of a search failure). */
export async function searchAssistants(t: Check, body: JsonObject, within?: string[]): Promise<ListedAssistant[]> {
  const requirement = 'AS-SRCH-001';
  const exchange = await t.as.post('/assistants/search', body);
  expect2xx(t, exchange, requirement, 'Searching assistants (POST /assistants/search)');
  const json = exchange.response?.json;
  t.expectOn(exchange, Array.isArray(json) && json.every((a) => isObject(a) && typeof a.assistant_id === 'string'), {
    requirement,
    message: 'POST /assistants/search did not answer with a list of assistants.',
    expected: 'a JSON array of Assistant objects',
  });
  const listed = (json as ListedAssistant[]).map((a) => ({ assistant_id: a.assistant_id, metadata: a.metadata }));
  if (within) {
    const foreign = listed.filter((a) => !within.includes(a.assistant_id));
    t.need(foreign.length === 0, {
      requirement,
      // The keys only: the values are this run's own names, in `expected`.
      message: `A search by metadata (${Object.keys(body.metadata ?? {}).join(', ')}) listed assistants without that metadata.`,
      expected: { metadata: body.metadata, assistant_ids: within },
      seen: listed,
    });
  }
  return listed;
}

/** The AssistantApi of one command sequence: its assistants carry a tag of their own. */
export function httpAssistantApi(t: Check): AssistantApi {
  const tag = t.name('model');
  return {
    async create(draft: AssistantDraft) {
      const created = await createAssistant(t, { context: draft.context, metadata: { ...draft.metadata, apc_model: tag } });
      return { id: created.id, context: created.body.context };
    },
    async update(id, context) {
      // The metadata goes along so that it stays the same whether or not a server keeps omitted fields.
      const exchange = await t.as.patch(`/assistants/${id}`, { context, metadata: runMetadata(t, { apc_model: tag }) });
      expect2xx(t, exchange, 'AS-ASST-003', `Updating assistant ${id} (PATCH)`);
      const json = exchange.response?.json;
      return { context: isObject(json) ? json.context : undefined };
    },
    async setLatest(id, version) {
      const exchange = await t.as.post(`/assistants/${id}/latest`, { version });
      if (is2xx(exchange)) return 'accepted';
      if (is4xx(exchange)) return 'refused';
      return t.failOn(exchange, { requirement: 'AS-ASST-004', message: `POST /assistants/${id}/latest neither succeeded nor was refused.`, expected: 'HTTP 2xx or 4xx' });
    },
    async delete(id) {
      expect2xx(t, await t.as.delete(`/assistants/${id}`), 'AS-ASST-005', `Deleting assistant ${id}`);
    },
    search: ({ limit, offset }) => searchIds(t, { metadata: { apc_model: tag }, limit, offset }),
    async runContext(id) {
      const update = await runEcho(t, { assistantId: id, input: { messages: [{ type: 'human', content: 'which context?' }] } });
      return update.context;
    },
  };
}
