// Proxy mutants of the agent server seen on a third-party server that follows the API in part,
// or written outside this project: each takes away another rule's usual path (a refused request
// form, a kind of stream without its events, an endpoint that fails), or breaks a rule only one
// kind of run shows. Each must fail the rules it breaks and no other, the rest judged another way.
import { editJson, editRequestJson, type ProxiedAnswer, type ProxiedRequest, type ProxyRules } from '../../proxy/proxy.ts';
import { rewriteStream, streamModeOf } from '../../proxy/sse-rewrite.ts';
import type { SseBlock } from '../../../generators/sse/stream-model.ts';
import type { ProxyMutant } from './mutant-record.ts';
import { editData, isCreate, isRun, isStatelessRun, isThreadRun, onRuns, pathOf } from './agent-server.ts';

type Json = Record<string, unknown>;

const answered = (status: number, detail: string): ProxiedAnswer => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify({ detail })),
});
const bodyOf = (r: ProxiedRequest): Json => JSON.parse(r.body.toString('utf8')) as Json;
const isSearch = (r: ProxiedRequest) => r.method === 'POST' && pathOf(r) === '/assistants/search';
const assistantPath = (r: ProxiedRequest) => /^\/assistants\/([^/]+)$/.exec(pathOf(r))?.[1];

/** The context the echo node shows in a run's updates and values events, replaced by `context`. */
function showContext(context: unknown): (blocks: SseBlock[]) => SseBlock[] {
  return (blocks) =>
    blocks.map((b) => {
      if (b.event === 'updates') return editData(b, (d) => void (d.echo && ((d.echo as Json).context = context)));
      if (b.event === 'values') return editData(b, (d) => void (d.context = context));
      return b;
    });
}

/** Thread runs by assistant_id use the newest version's context, whichever version set-latest made active. */
function threadRunsUseNewest(): ProxyRules {
  const newest = new Map<string, unknown>();
  return {
    answer(r, a) {
      const updated = r.method === 'PATCH' && assistantPath(r) !== undefined;
      if ((isCreate(r) || updated) && a.status < 300) return editJson(a, (x) => void newest.set(String(x.assistant_id), x.context));
      if (!isThreadRun(r)) return a;
      const context = newest.get(String(bodyOf(r).assistant_id));
      return context === undefined ? a : rewriteStream(a, showContext(context));
    },
  };
}

/** Thread state kept by assistant: every thread run of an assistant goes to the first thread it ran on. */
function threadStateByAssistant(): ProxyRules {
  const created = new Set<string>();
  const firstThread = new Map<string, string>();
  return {
    request(r) {
      if (!isThreadRun(r)) return r;
      const assistant = String(bodyOf(r).assistant_id);
      // Assistants made through this proxy only: a graph name is shared by every test of a run.
      if (!created.has(assistant)) return r;
      const thread = /^\/threads\/([^/]+)\//.exec(pathOf(r))![1]!;
      const first = firstThread.get(assistant) ?? thread;
      firstThread.set(assistant, first);
      return { ...r, path: r.path.replace(`/threads/${thread}/`, `/threads/${first}/`) };
    },
    answer: (r, a) => (isCreate(r) && a.status < 300 ? editJson(a, (x) => void created.add(String(x.assistant_id))) : a),
  };
}

/** Search clamps an offset past the end: it lists the last page instead of nothing. */
function offsetClamped(): ProxyRules {
  const pages = new WeakMap<ProxiedRequest, { limit: number; offset: number }>();
  return {
    request(r) {
      if (!isSearch(r)) return r;
      const { limit = 10, offset = 0 } = bodyOf(r);
      if (!Number.isInteger(limit) || !Number.isInteger(offset) || (limit as number) < 1) return r;
      const all = editRequestJson(r, (body) => Object.assign(body, { limit: 1000, offset: 0 }));
      pages.set(all, { limit: limit as number, offset: offset as number });
      return all;
    },
    answer(r, a) {
      const page = pages.get(r);
      if (!page || a.status !== 200) return a;
      const listed = JSON.parse(a.body.toString('utf8')) as Json[];
      const start = Math.min(page.offset, Math.max(0, listed.length - page.limit));
      return { ...a, body: Buffer.from(JSON.stringify(listed.slice(start, start + page.limit))) };
    },
  };
}

export const AGENT_SERVER_PATH_PROXY_MUTANTS: readonly ProxyMutant[] = [
  {
    id: 'as.search-offset-clamped',
    what: 'POST /assistants/search with an offset past the end lists the last page instead of nothing.',
    breaks: 'Spec 4.2: offset skips that many assistants.',
    family: 'assistants and threads',
    fails: { mode: 'hosted', requirements: ['AS-SRCH-002'] },
    rules: offsetClamped,
  },
  {
    id: 'as.search-limit-zero-unbounded',
    what: 'POST /assistants/search with limit 0 lists a default page (10) instead of nothing.',
    breaks: 'Spec 4.2: limit is the most assistants listed.',
    family: 'assistants and threads',
    fails: { mode: 'hosted', requirements: ['AS-SRCH-002'] },
    rules: () => ({
      request: (r) => (isSearch(r) && bodyOf(r).limit === 0 ? editRequestJson(r, (body) => void delete body.limit) : r),
    }),
  },
  {
    id: 'as.thread-string-mode-refused',
    what: 'A thread run with stream_mode given as the string "updates" is refused with 400 (a list of modes works, and stateless runs take both).',
    breaks: 'Spec 4.2 and 6: stream_mode is a string or an array of strings; the string updates is accepted.',
    family: 'sse',
    fails: { mode: 'hosted', requirements: ['AS-SSE-006'] },
    rules: () => ({
      request: (r) => (isThreadRun(r) && streamModeOf(r) === 'updates' ? answered(400, 'stream_mode must be a list') : r),
    }),
  },
  {
    id: 'as.stateless-values-only',
    what: 'Stateless run streams carry no metadata and no updates events: a stateless run asked for updates streams values (thread runs are right).',
    breaks: 'Spec 6: a run stream emits a metadata event holding run_id, and the updates mode streams updates events.',
    family: 'sse',
    fails: { mode: 'hosted', requirements: ['AS-SSE-003', 'AS-SSE-006', 'AS-SSE-007'] },
    rules: () => ({
      request: (r) => {
        const mode = streamModeOf(r);
        const updates = mode === 'updates' || (Array.isArray(mode) && mode.includes('updates'));
        return isStatelessRun(r) && updates ? editRequestJson(r, (body) => void (body.stream_mode = 'values')) : r;
      },
      answer: onRuns(isStatelessRun, (blocks) => blocks.filter((b) => b.event !== 'metadata')),
    }),
  },
  {
    id: 'as.set-latest-version-from-query',
    what: "POST /assistants/{id}/latest answers 200 but ignores the body's version: it reads a query parameter, which defaults to 1.",
    breaks: 'Spec 3 and 4.2: set latest with a version number (in the body) makes that version active.',
    family: 'assistant versions',
    fails: { mode: 'hosted', requirements: ['AS-ASST-004'] },
    rules: () => ({
      request: (r) => {
        if (r.method !== 'POST' || !/^\/assistants\/[^/]+\/latest$/.test(pathOf(r))) return r;
        const query = new URLSearchParams(r.path.split('?')[1] ?? '');
        return editRequestJson(r, (body) => void (body.version = Number(query.get('version') ?? 1)));
      },
    }),
  },
  {
    id: 'as.runs-ignore-context',
    what: "Runs by assistant_id never apply the assistant's context: every run echoes context {}.",
    breaks: "Spec 1.B and 3: an assistant's context customizes the graph at run time; runs by assistant_id use the active version's.",
    family: 'assistant versions',
    fails: { mode: 'hosted', requirements: ['AS-ASST-002'] },
    rules: () => ({ answer: onRuns(isRun, showContext({})) }),
  },
  {
    id: 'as.thread-runs-use-newest-version',
    what: "Thread runs by assistant_id use the newest version's context after set-latest chose another (stateless runs and the assistant's reads are right).",
    breaks: 'Spec 3: the version set latest becomes the active version; runs by assistant_id use it.',
    family: 'assistant versions',
    fails: { mode: 'hosted', requirements: ['AS-ASST-002', 'AS-ASST-004'] },
    rules: threadRunsUseNewest,
  },
  {
    id: 'as.thread-state-by-assistant',
    what: 'Thread state is kept by assistant: a new thread starts with the messages of earlier runs on another thread of the same assistant.',
    breaks: 'Spec 1.B: a thread is the accumulated outputs of a group of runs (its own).',
    family: 'runs',
    fails: { mode: 'hosted', requirements: ['AS-RUN-002'] },
    rules: threadStateByAssistant,
  },
  {
    id: 'as.update-fails',
    what: 'PATCH /assistants/{id} answers 500 and changes nothing.',
    breaks: 'Spec 3 and 4.2: an update creates a new active version and answers with the updated assistant.',
    family: 'assistant versions',
    fails: { mode: 'hosted', requirements: ['AS-ASST-003'] },
    rules: () => ({
      request: (r) => (r.method === 'PATCH' && assistantPath(r) !== undefined ? answered(500, 'Internal Server Error') : r),
    }),
  },
  {
    id: 'as.delete-answers-500',
    what: 'DELETE /assistants/{id} answers 500 and the assistant is still there.',
    breaks: 'Spec 3: deleting an assistant deletes all its versions.',
    family: 'assistant versions',
    fails: { mode: 'hosted', requirements: ['AS-ASST-005'] },
    rules: () => ({
      request: (r) => (r.method === 'DELETE' && assistantPath(r) !== undefined ? answered(500, 'Internal Server Error') : r),
    }),
  },
];
