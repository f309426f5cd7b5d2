// Proxy mutants of the agent-server: rules the fault switches do not break, each broken by a
// rewriting proxy in front of the reference.
import { editJson, editRequestJson, type ProxiedAnswer, type ProxiedRequest, type ProxyRules } from '../../proxy/proxy.ts';
import { isEventStream, rewriteStream, streamModeOf } from '../../proxy/sse-rewrite.ts';
import type { SseBlock } from '../../../generators/sse/stream-model.ts';
import type { ProxyMutant } from './mutant-record.ts';
import { anyKeyServed, missingKeyServed } from './key-rules.ts';

type Json = Record<string, unknown>;

export const pathOf = (r: ProxiedRequest) => r.path.split('?')[0]!;
export const isRun = (r: ProxiedRequest) => r.method === 'POST' && /\/runs\/stream$/.test(pathOf(r));
export const isThreadRun = (r: ProxiedRequest) => isRun(r) && pathOf(r).startsWith('/threads/');
export const isStatelessRun = (r: ProxiedRequest) => isRun(r) && pathOf(r) === '/runs/stream';
export const isCreate = (r: ProxiedRequest) => r.method === 'POST' && pathOf(r) === '/assistants';
const isSearch = (r: ProxiedRequest) => r.method === 'POST' && pathOf(r) === '/assistants/search';

/** The data of an event block as JSON, changed by `edit`. */
export function editData(block: SseBlock, edit: (data: Json) => void): SseBlock {
  if (block.data === undefined) return block;
  const data = JSON.parse(block.data) as Json;
  edit(data);
  return { ...block, data: JSON.stringify(data) };
}

/** The run's input messages with their content replaced, as a server that does not pass the input on. */
function dropInput(r: ProxiedRequest): ProxiedRequest {
  return editRequestJson(r, (body) => {
    for (const m of (body.input as { messages?: { content?: unknown }[] } | undefined)?.messages ?? []) m.content = 'not the input sent';
  });
}

/** An answer rule for run streams only. */
export function onRuns(match: (r: ProxiedRequest) => boolean, edit: (blocks: SseBlock[]) => SseBlock[]): ProxyRules['answer'] {
  return (r, a) => (match(r) ? rewriteStream(a, edit) : a);
}

/** Runs by assistant_id always use the context an assistant was created with, whatever version is active. */
function firstVersionRuns(): ProxyRules {
  const created = new Map<string, unknown>();
  return {
    answer(r, a) {
      if (isCreate(r)) {
        return editJson(a, (x) => void created.set(String(x.assistant_id), x.context));
      }
      if (!isRun(r)) return a;
      const context = created.get(String((JSON.parse(r.body.toString('utf8')) as Json).assistant_id));
      if (context === undefined) return a;
      return rewriteStream(a, (blocks) =>
        blocks.map((b) => (b.event === 'updates' ? editData(b, (d) => void (d.echo && ((d.echo as Json).context = context))) : b)),
      );
    },
  };
}

/**
 * Search keeps an index of the assistants as created, which deletion does not clean (the deletion
 * itself works): the proxy asks the reference for every match and pages them, ghosts included.
 */
function deletedStillListed(): ProxyRules {
  const assistants = new Map<string, Json>();
  const deleted = new Set<string>();
  const pages = new WeakMap<ProxiedRequest, { limit: number; offset: number; metadata: Json }>();
  return {
    request(r) {
      const id = /^\/assistants\/([^/]+)$/.exec(pathOf(r))?.[1];
      if (r.method === 'DELETE' && id !== undefined) deleted.add(id);
      if (!isSearch(r)) return r;
      const { limit = 10, offset = 0, metadata = {} } = JSON.parse(r.body.toString('utf8')) as { limit?: unknown; offset?: unknown; metadata?: Json };
      if (!Number.isInteger(limit) || !Number.isInteger(offset) || (limit as number) < 1 || (offset as number) < 0) return r;
      const all = editRequestJson(r, (body) => Object.assign(body, { limit: 1000, offset: 0 }));
      pages.set(all, { limit: limit as number, offset: offset as number, metadata });
      return all;
    },
    answer(r, a) {
      if (isCreate(r)) return editJson(a, (x) => void assistants.set(String(x.assistant_id), x));
      const page = pages.get(r);
      if (!page || a.status !== 200) return a;
      const listed = JSON.parse(a.body.toString('utf8')) as Json[];
      const ghosts = [...deleted]
        .map((id) => assistants.get(id))
        .filter(
          (x): x is Json => x !== undefined && Object.entries(page.metadata).every(([k, v]) => JSON.stringify((x.metadata as Json)[k]) === JSON.stringify(v)),
        );
      const newestFirst = [...listed, ...ghosts].sort((x, y) => Date.parse(String(y.created_at)) - Date.parse(String(x.created_at)));
      return { ...a, body: Buffer.from(JSON.stringify(newestFirst.slice(page.offset, page.offset + page.limit))) };
    },
  };
}

/** POST /assistants/{id}/latest refuses the version that is already active (409), as if there were nothing to do. */
function activeVersionRefused(): ProxyRules {
  const active = new Map<string, number>();
  const latest = (r: ProxiedRequest) => (r.method === 'POST' ? /^\/assistants\/([^/]+)\/latest$/.exec(pathOf(r))?.[1] : undefined);
  return {
    request(r): ProxiedRequest | ProxiedAnswer {
      const id = latest(r);
      if (id === undefined || active.get(id) !== (JSON.parse(r.body.toString('utf8')) as Json).version) return r;
      return { status: 409, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"detail":"This version is already the latest."}') };
    },
    answer(r, a) {
      const changes = isCreate(r) || latest(r) !== undefined || (r.method === 'PATCH' && pathOf(r).startsWith('/assistants/'));
      return changes && a.status < 300 ? editJson(a, (x) => void active.set(String(x.assistant_id), Number(x.version))) : a;
    },
  };
}

/** Stateless runs in messages mode: every event is sent, then the stream stays open with heartbeats. */
function heldOpenAfterMessages(): ProxyRules {
  const held = new WeakSet<ProxiedAnswer>();
  return {
    answer(r, a) {
      if (!isStatelessRun(r) || streamModeOf(r) !== 'messages') return a;
      const kept = { ...a };
      held.add(kept);
      return kept;
    },
    holdOpen: (a) => (held.has(a) ? { every: { ms: 1_000, text: ': heartbeat\n\n' } } : undefined),
  };
}

export const AGENT_SERVER_PROXY_MUTANTS: readonly ProxyMutant[] = [
  {
    id: 'as.name-not-kept',
    what: 'POST /assistants answers with a name other than the one sent.',
    breaks:
      'Spec 4.2: POST /assistants with graph_id, context and name creates an assistant and answers with an Assistant object (assistant_id, graph_id, name, context, metadata, created_at, updated_at) holding the values sent.',
    family: 'assistants and threads',
    fails: { mode: 'hosted', requirements: ['AS-ASST-001'] },
    rules: () => ({
      answer: (r, a) => (isCreate(r) ? editJson(a, (x) => void (x.name = `${String(x.name)}-renamed`)) : a),
    }),
  },
  {
    id: 'as.graph-id-defaulted',
    what: 'POST /assistants without graph_id creates an assistant of a default graph instead of refusing.',
    breaks: 'Spec 4.2: POST /assistants without graph_id is refused with a 4xx status.',
    family: 'assistants and threads',
    fails: { mode: 'hosted', requirements: ['AS-ASST-007'] },
    rules: () => ({
      request: (r) => (isCreate(r) ? editRequestJson(r, (body) => void (body.graph_id ??= 'echo')) : r),
    }),
  },
  {
    id: 'as.search-offset-ignored',
    what: 'POST /assistants/search ignores offset: every page starts at the first match.',
    breaks:
      'Spec 4.2: POST /assistants/search honours limit (at most that many assistants) and offset (skips that many), so pages of one search list each matching assistant exactly once.',
    family: 'assistants and threads',
    fails: { mode: 'hosted', requirements: ['AS-SRCH-002'] },
    rules: () => ({
      request: (r) => (isSearch(r) ? editRequestJson(r, (body) => void delete body.offset) : r),
    }),
  },
  {
    id: 'as.search-limit-plus-one',
    what: 'POST /assistants/search lists one assistant more than the limit asks.',
    breaks:
      'Spec 4.2: POST /assistants/search honours limit (at most that many assistants) and offset (skips that many), so pages of one search list each matching assistant exactly once.',
    family: 'assistants and threads',
    fails: { mode: 'hosted', requirements: ['AS-SRCH-002'] },
    rules: () => ({
      request: (r) => (isSearch(r) ? editRequestJson(r, (body) => void (typeof body.limit === 'number' && (body.limit += 1))) : r),
    }),
  },
  {
    id: 'as.thread-id-renamed',
    what: 'POST /threads answers the new thread\'s id as "id" instead of "thread_id".',
    breaks: 'Spec 4.2: POST /threads with an empty object creates a thread and answers with its thread_id.',
    family: 'assistants and threads',
    fails: { mode: 'hosted', requirements: ['AS-THR-001', 'AS-THR-002'] },
    rules: () => ({
      answer: (r, a) => (r.method === 'POST' && pathOf(r) === '/threads' ? editJson(a, (x) => ((x.id = x.thread_id), delete x.thread_id)) : a),
    }),
  },
  {
    id: 'as.thread-run-ignores-input',
    what: 'A run on a thread does not add its input to the thread: the graph runs on the thread as it was.',
    breaks:
      'Spec 4.2: POST /threads/{thread_id}/runs/stream with assistant_id, input and stream_mode runs the assistant on the thread and streams its results.',
    family: 'runs',
    fails: { mode: 'hosted', requirements: ['AS-RUN-001'] },
    rules: () => ({
      request: (r) => (isThreadRun(r) ? dropInput(r) : r),
    }),
  },
  {
    id: 'as.thread-runs-forget',
    what: 'Runs on a thread are run as stateless runs: the thread keeps nothing of them, and their events carry no id lines.',
    breaks: 'Spec 1: A thread accumulates the outputs of its runs, so a later run on the same thread sees the messages of earlier ones.',
    family: 'runs',
    fails: { mode: 'hosted', requirements: ['AS-RUN-002', 'AS-SSE-011'] },
    rules: () => ({
      request: (r) => (isThreadRun(r) ? { ...r, path: '/runs/stream' } : r),
    }),
  },
  {
    id: 'as.stateless-run-ignores-input',
    what: 'A stateless run does not pass its input to the graph.',
    breaks: 'Spec 4.2: POST /runs/stream with assistant_id, input and stream_mode runs the assistant without a thread and streams its results.',
    family: 'runs',
    fails: { mode: 'hosted', requirements: ['AS-RUN-003'] },
    rules: () => ({
      request: (r) => (isStatelessRun(r) ? dropInput(r) : r),
    }),
  },
  {
    id: 'as.run-id-missing',
    what: 'The metadata event of a run stream does not carry run_id.',
    breaks: 'Spec 6: A run stream emits a metadata event whose data is a JSON object holding the run_id.',
    family: 'sse',
    fails: { mode: 'hosted', requirements: ['AS-SSE-003'] },
    rules: () => ({
      answer: onRuns(isRun, (blocks) => blocks.map((b) => (b.event === 'metadata' ? editData(b, (d) => void delete d.run_id) : b))),
    }),
  },
  {
    id: 'as.updates-mode-without-updates',
    what: 'stream_mode "updates" given as a string streams no updates events (a list of modes still works).',
    breaks: 'Spec 6: stream_mode given as the string updates is accepted and the stream carries updates events.',
    family: 'sse',
    fails: { mode: 'hosted', requirements: ['AS-SSE-006'] },
    rules: () => ({
      answer: onRuns(
        (r) => streamModeOf(r) === 'updates',
        (blocks) => blocks.filter((b) => b.event !== 'updates'),
      ),
    }),
  },
  {
    id: 'as.messages-mode-only-metadata',
    what: 'A run streamed with stream_mode "messages" sends its metadata event and nothing else.',
    breaks: 'Spec 6: A run streamed with stream_mode messages yields events besides its metadata.',
    family: 'sse',
    fails: { mode: 'hosted', requirements: ['AS-SSE-008'] },
    rules: () => ({
      answer: onRuns(
        (r) => streamModeOf(r) === 'messages',
        (blocks) => blocks.filter((b) => b.event === 'metadata'),
      ),
    }),
  },
  {
    id: 'as.stream-held-open',
    what: 'A stateless run in messages mode sends every event, then keeps the stream open with heartbeats instead of closing it.',
    breaks: 'Spec 6: A run stream ends once the run is over; the server closes it rather than stalling or staying open.',
    family: 'sse',
    fails: { mode: 'hosted', requirements: ['AS-SSE-009'] },
    rules: heldOpenAfterMessages,
  },
  {
    id: 'as.last-event-unterminated',
    what: 'A run stream closes right after the last data line, without the blank line that ends the event.',
    breaks: 'Spec 6: Every event of a run stream is a complete server-sent event with an event line naming its kind and a data line with its payload.',
    family: 'sse',
    fails: { mode: 'hosted', requirements: ['AS-SSE-002'] },
    rules: () => ({
      answer: (r, a) => (isRun(r) && isEventStream(a) && a.body.toString('utf8').endsWith('\n\n') ? { ...a, body: a.body.subarray(0, a.body.length - 1) } : a),
    }),
  },
  {
    id: 'as.metadata-event-renamed',
    what: 'The run\'s metadata event is named "run" instead of "metadata".',
    breaks: 'Spec 6: A run stream emits a metadata event whose data is a JSON object holding the run_id.',
    family: 'sse',
    // No stream carries a metadata event: the order and attempt rules (AS-SSE-004, AS-SSE-010) are
    // judged on streams that carry one, so they are blocked by AS-SSE-003, not failed.
    fails: { mode: 'hosted', requirements: ['AS-SSE-003'] },
    rules: () => ({
      answer: onRuns(isRun, (blocks) => blocks.map((b) => (b.event === 'metadata' ? { ...b, event: 'run' } : b))),
    }),
  },
  {
    id: 'as.event-kind-in-payload',
    what: 'Every event of a run stream is named "data"; the kind is inside the payload ({"event": <kind>, "data": <payload>}).',
    breaks: 'Spec 6: each event has an event: line naming the kind.',
    family: 'sse',
    fails: { mode: 'hosted', requirements: ['AS-SSE-002'] },
    rules: () => ({
      answer: onRuns(isRun, (blocks) =>
        blocks.map((b) =>
          b.event === undefined || b.data === undefined
            ? b
            : { ...b, event: 'data', data: JSON.stringify({ event: b.event, data: JSON.parse(b.data) as unknown }) },
        ),
      ),
    }),
  },
  {
    id: 'as.content-type-missing',
    what: 'Run streams are answered without a Content-Type header.',
    breaks: 'Spec 6: A run stream is answered with the content type text/event-stream.',
    family: 'sse',
    fails: { mode: 'hosted', requirements: ['AS-SSE-001'] },
    rules: () => ({
      answer: (r, a) => {
        if (!isRun(r) || !isEventStream(a)) return a;
        const { 'content-type': _dropped, ...headers } = a.headers;
        return { ...a, headers };
      },
    }),
  },
  {
    id: 'as.docs-missing',
    what: 'GET /docs answers 404: the deployment serves no API reference.',
    breaks: "Spec 4.2: GET /docs serves the deployment's API reference.",
    family: 'assistants and threads',
    fails: { mode: 'hosted', requirements: ['AS-DOCS-001'] },
    rules: () => ({
      request: (r): ProxiedRequest | ProxiedAnswer =>
        r.method === 'GET' && pathOf(r) === '/docs' ? { status: 404, headers: { 'content-type': 'text/plain' }, body: Buffer.from('not here') } : r,
    }),
  },
  {
    id: 'as.missing-key-accepted',
    what: 'A request without an X-Api-Key header is served as if it carried a valid key.',
    breaks: 'Spec 5: A platform-hosted agent server refuses requests without an X-Api-Key header with a 4xx status.',
    family: 'keys and tenants',
    fails: { mode: 'hosted', requirements: ['AS-AUTH-001'] },
    rules: (keys) => missingKeyServed(keys, 'x-api-key'),
  },
  {
    id: 'as.any-key-accepted',
    what: 'A request with an X-Api-Key that is not a valid key is served as if the key were valid.',
    breaks: 'Spec 5: A platform-hosted agent server refuses requests whose X-Api-Key is not a valid key with a 4xx status.',
    family: 'keys and tenants',
    fails: { mode: 'hosted', requirements: ['AS-AUTH-002'] },
    rules: (keys) => anyKeyServed(keys, 'x-api-key'),
  },
  {
    id: 'as.update-answers-old-context',
    what: 'PATCH /assistants/{id} creates the new version but answers with the context of the version before it.',
    breaks:
      'Spec 3: PATCH /assistants/{assistant_id} creates a new active version from the supplied context alone, with nothing merged from earlier versions, and answers with the updated assistant.',
    family: 'assistant versions',
    fails: { mode: 'hosted', requirements: ['AS-ASST-003'] },
    rules: () => {
      const contexts = new Map<string, unknown>();
      return {
        answer(r, a) {
          if (isCreate(r)) return editJson(a, (x) => void contexts.set(String(x.assistant_id), x.context));
          if (r.method !== 'PATCH' || !pathOf(r).startsWith('/assistants/')) return a;
          return editJson(a, (x) => {
            const id = String(x.assistant_id);
            const before = contexts.get(id);
            contexts.set(id, x.context);
            x.context = before;
          });
        },
      };
    },
  },
  {
    id: 'as.set-latest-active-refused',
    what: 'POST /assistants/{id}/latest refuses (409) to set the version that is already active.',
    breaks:
      'Spec 3: A new assistant has version 1 and it is active; setting version 1 as latest is accepted and runs by assistant_id use the context the assistant was created with.',
    family: 'assistant versions',
    fails: { mode: 'hosted', requirements: ['AS-ASST-002'] },
    rules: activeVersionRefused,
  },
  {
    id: 'as.runs-use-first-version',
    what: 'Runs by assistant_id always use the context the assistant was created with, whichever version is active.',
    breaks:
      'Spec 3: PATCH /assistants/{assistant_id} creates a new active version from the supplied context alone, with nothing merged from earlier versions, and answers with the updated assistant.',
    family: 'assistant versions',
    fails: { mode: 'hosted', requirements: ['AS-ASST-003', 'AS-ASST-004'] },
    rules: firstVersionRuns,
  },
  {
    id: 'as.deleted-still-searchable',
    what: 'Deleting an assistant removes it, but search still lists it.',
    breaks: 'Spec 3: Deleting an assistant deletes all its versions; afterwards none of its versions can be made active and search no longer lists it.',
    family: 'assistant versions',
    fails: { mode: 'hosted', requirements: ['AS-ASST-005'] },
    rules: deletedStillListed,
  },
  {
    id: 'as.delete-refused',
    what: 'DELETE /assistants/{id} is refused with 405: assistants cannot be deleted.',
    breaks: 'Spec 3: Deleting an assistant deletes all its versions; afterwards none of its versions can be made active and search no longer lists it.',
    family: 'assistant versions',
    fails: { mode: 'hosted', requirements: ['AS-ASST-005'] },
    rules: () => ({
      request: (r): ProxiedRequest | ProxiedAnswer =>
        r.method === 'DELETE' && /^\/assistants\/[^/]+$/.test(pathOf(r))
          ? { status: 405, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"detail":"Method Not Allowed"}') }
          : r,
    }),
  },
];
