// Proxy mutants of the agent-server: rules the fault switches do not break, each broken by a
// rewriting proxy in front of the reference.
import { editJson, editRequestJson, type ProxiedAnswer, type ProxiedRequest, type ProxyRules } from '../../proxy/proxy.ts';
import { isEventStream, rewriteStream, streamModeOf } from '../../proxy/sse-rewrite.ts';
import type { SseBlock } from '../../../generators/sse/stream-model.ts';
import type { Family, Mutant, TargetKeys } from '../subjects.ts';
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

export function mutant(id: string, family: Family, catches: string[], what: string, proxy: (keys: TargetKeys) => ProxyRules): Mutant {
  return { kind: 'mutant', id, what, interface: 'agent-server', family, catches, proxy };
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
      return rewriteStream(a, (blocks) => blocks.map((b) => (b.event === 'updates' ? editData(b, (d) => void (d.echo && ((d.echo as Json).context = context))) : b)));
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
        .filter((x): x is Json => x !== undefined && Object.entries(page.metadata).every(([k, v]) => JSON.stringify((x.metadata as Json)[k]) === JSON.stringify(v)));
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

export function agentServerMutants(): Mutant[] {
  return [
    mutant('as.name-not-kept', 'assistants and threads', ['AS-ASST-001'], 'POST /assistants answers with a name other than the one sent.', () => ({
      answer: (r, a) => (isCreate(r) ? editJson(a, (x) => void (x.name = `${String(x.name)}-renamed`)) : a),
    })),
    mutant('as.graph-id-defaulted', 'assistants and threads', ['AS-ASST-007'], 'POST /assistants without graph_id creates an assistant of a default graph instead of refusing.', () => ({
      request: (r) => (isCreate(r) ? editRequestJson(r, (body) => void (body.graph_id ??= 'echo')) : r),
    })),
    mutant('as.search-offset-ignored', 'assistants and threads', ['AS-SRCH-002'], 'POST /assistants/search ignores offset: every page starts at the first match.', () => ({
      request: (r) => (isSearch(r) ? editRequestJson(r, (body) => void delete body.offset) : r),
    })),
    mutant('as.search-limit-plus-one', 'assistants and threads', ['AS-SRCH-002'], 'POST /assistants/search lists one assistant more than the limit asks.', () => ({
      request: (r) => (isSearch(r) ? editRequestJson(r, (body) => void (typeof body.limit === 'number' && (body.limit += 1))) : r),
    })),
    mutant('as.thread-id-renamed', 'assistants and threads', ['AS-THR-001', 'AS-THR-002'], 'POST /threads answers the new thread\'s id as "id" instead of "thread_id".', () => ({
      answer: (r, a) => (r.method === 'POST' && pathOf(r) === '/threads' ? editJson(a, (x) => ((x.id = x.thread_id), delete x.thread_id)) : a),
    })),
    mutant('as.thread-run-ignores-input', 'runs', ['AS-RUN-001'], 'A run on a thread does not add its input to the thread: the graph runs on the thread as it was.', () => ({
      request: (r) => (isThreadRun(r) ? dropInput(r) : r),
    })),
    mutant('as.thread-runs-forget', 'runs', ['AS-RUN-002', 'AS-SSE-011'], 'Runs on a thread are run as stateless runs: the thread keeps nothing of them, and their events carry no id lines.', () => ({
      request: (r) => (isThreadRun(r) ? { ...r, path: '/runs/stream' } : r),
    })),
    mutant('as.stateless-run-ignores-input', 'runs', ['AS-RUN-003'], 'A stateless run does not pass its input to the graph.', () => ({
      request: (r) => (isStatelessRun(r) ? dropInput(r) : r),
    })),
    mutant('as.run-id-missing', 'sse', ['AS-SSE-003'], 'The metadata event of a run stream does not carry run_id.', () => ({
      answer: onRuns(isRun, (blocks) => blocks.map((b) => (b.event === 'metadata' ? editData(b, (d) => void delete d.run_id) : b))),
    })),
    mutant('as.updates-mode-without-updates', 'sse', ['AS-SSE-006'], 'stream_mode "updates" given as a string streams no updates events (a list of modes still works).', () => ({
      answer: onRuns((r) => streamModeOf(r) === 'updates', (blocks) => blocks.filter((b) => b.event !== 'updates')),
    })),
    mutant('as.messages-mode-only-metadata', 'sse', ['AS-SSE-008'], 'A run streamed with stream_mode "messages" sends its metadata event and nothing else.', () => ({
      answer: onRuns((r) => streamModeOf(r) === 'messages', (blocks) => blocks.filter((b) => b.event === 'metadata')),
    })),
    mutant('as.stream-held-open', 'sse', ['AS-SSE-009'], 'A stateless run in messages mode sends every event, then keeps the stream open with heartbeats instead of closing it.', heldOpenAfterMessages),
    mutant('as.last-event-unterminated', 'sse', ['AS-SSE-002'], 'A run stream closes right after the last data line, without the blank line that ends the event.', () => ({
      answer: (r, a) => (isRun(r) && isEventStream(a) && a.body.toString('utf8').endsWith('\n\n') ? { ...a, body: a.body.subarray(0, a.body.length - 1) } : a),
    })),
    // No stream carries a metadata event: the order and attempt rules (AS-SSE-004, AS-SSE-010) are
    // judged on streams that carry one, so they are blocked by AS-SSE-003, not failed.
    mutant('as.metadata-event-renamed', 'sse', ['AS-SSE-003'], 'The run\'s metadata event is named "run" instead of "metadata".', () => ({
      answer: onRuns(isRun, (blocks) => blocks.map((b) => (b.event === 'metadata' ? { ...b, event: 'run' } : b))),
    })),
    mutant('as.event-kind-in-payload', 'sse', ['AS-SSE-002'], 'Every event of a run stream is named "data"; the kind is inside the payload ({"event": <kind>, "data": <payload>}).', () => ({
      answer: onRuns(isRun, (blocks) => blocks.map((b) => (b.event === undefined || b.data === undefined ? b : { ...b, event: 'data', data: JSON.stringify({ event: b.event, data: JSON.parse(b.data) as unknown }) }))),
    })),
    mutant('as.content-type-missing', 'sse', ['AS-SSE-001'], 'Run streams are answered without a Content-Type header.', () => ({
      answer: (r, a) => {
        if (!isRun(r) || !isEventStream(a)) return a;
        const { 'content-type': _dropped, ...headers } = a.headers;
        return { ...a, headers };
      },
    })),
    mutant('as.docs-missing', 'assistants and threads', ['AS-DOCS-001'], 'GET /docs answers 404: the deployment serves no API reference.', () => ({
      request: (r): ProxiedRequest | ProxiedAnswer =>
        r.method === 'GET' && pathOf(r) === '/docs' ? { status: 404, headers: { 'content-type': 'text/plain' }, body: Buffer.from('not here') } : r,
    })),
    mutant('as.missing-key-accepted', 'keys and tenants', ['AS-AUTH-001'], 'A request without an X-Api-Key header is served as if it carried a valid key.', (keys) => missingKeyServed(keys, 'x-api-key')),
    mutant('as.any-key-accepted', 'keys and tenants', ['AS-AUTH-002'], 'A request with an X-Api-Key that is not a valid key is served as if the key were valid.', (keys) => anyKeyServed(keys, 'x-api-key')),
    mutant('as.update-answers-old-context', 'assistant versions', ['AS-ASST-003'], 'PATCH /assistants/{id} creates the new version but answers with the context of the version before it.', () => {
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
    }),
    mutant('as.set-latest-active-refused', 'assistant versions', ['AS-ASST-002'], 'POST /assistants/{id}/latest refuses (409) to set the version that is already active.', activeVersionRefused),
    mutant('as.runs-use-first-version', 'assistant versions', ['AS-ASST-003', 'AS-ASST-004'], 'Runs by assistant_id always use the context the assistant was created with, whichever version is active.', firstVersionRuns),
    mutant('as.deleted-still-searchable', 'assistant versions', ['AS-ASST-005'], 'Deleting an assistant removes it, but search still lists it.', deletedStillListed),
    mutant('as.delete-refused', 'assistant versions', ['AS-ASST-005'], 'DELETE /assistants/{id} is refused with 405: assistants cannot be deleted.', () => ({
      request: (r): ProxiedRequest | ProxiedAnswer =>
        r.method === 'DELETE' && /^\/assistants\/[^/]+$/.test(pathOf(r)) ? { status: 405, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"detail":"Method Not Allowed"}') } : r,
    })),
  ];
}
