// Proxy mutants of the agent server seen on a third-party server that follows the API in part,
// or written outside this project: each takes away another rule's usual path (a refused request
// form, a kind of stream without its events, an endpoint that fails), or breaks a rule only one
// kind of run shows. Each must fail the rules it breaks and no other, the rest judged another way.
import { editJson, editRequestJson, type ProxiedAnswer, type ProxiedRequest, type ProxyRules } from '../../proxy/proxy.ts';
import { rewriteStream, streamModeOf } from '../../proxy/sse-rewrite.ts';
import type { SseBlock } from '../../../generators/sse/stream-model.ts';
import type { Mutant } from '../subjects.ts';
import { editData, isCreate, isRun, isStatelessRun, isThreadRun, mutant, onRuns, pathOf } from './agent-server.ts';

type Json = Record<string, unknown>;

const answered = (status: number, detail: string): ProxiedAnswer => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify({ detail })),
});
const bodyOf = (r: ProxiedRequest): Json => JSON.parse(r.body.toString('utf8')) as Json;
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

export function agentServerPathMutants(): Mutant[] {
  return [
    mutant(
      'as.thread-string-mode-refused',
      'sse',
      ['AS-SSE-006'],
      'A thread run with stream_mode given as the string "updates" is refused with 400 (a list of modes works, and stateless runs take both).',
      () => ({
        request: (r) => (isThreadRun(r) && streamModeOf(r) === 'updates' ? answered(400, 'stream_mode must be a list') : r),
      }),
    ),
    mutant(
      'as.stateless-values-only',
      'sse',
      ['AS-SSE-003', 'AS-SSE-006', 'AS-SSE-007'],
      'Stateless run streams carry no metadata and no updates events: a stateless run asked for updates streams values (thread runs are right).',
      () => ({
        request: (r) => {
          const mode = streamModeOf(r);
          const updates = mode === 'updates' || (Array.isArray(mode) && mode.includes('updates'));
          return isStatelessRun(r) && updates ? editRequestJson(r, (body) => void (body.stream_mode = 'values')) : r;
        },
        answer: onRuns(isStatelessRun, (blocks) => blocks.filter((b) => b.event !== 'metadata')),
      }),
    ),
    mutant(
      'as.set-latest-version-from-query',
      'assistant versions',
      ['AS-ASST-004'],
      "POST /assistants/{id}/latest answers 200 but ignores the body's version: it reads a query parameter, which defaults to 1.",
      () => ({
        request: (r) => {
          if (r.method !== 'POST' || !/^\/assistants\/[^/]+\/latest$/.test(pathOf(r))) return r;
          const query = new URLSearchParams(r.path.split('?')[1] ?? '');
          return editRequestJson(r, (body) => void (body.version = Number(query.get('version') ?? 1)));
        },
      }),
    ),
    mutant(
      'as.runs-ignore-context',
      'assistant versions',
      ['AS-ASST-002'],
      "Runs by assistant_id never apply the assistant's context: every run echoes context {}.",
      () => ({
        answer: onRuns(isRun, showContext({})),
      }),
    ),
    mutant(
      'as.thread-runs-use-newest-version',
      'assistant versions',
      ['AS-ASST-002', 'AS-ASST-004'],
      "Thread runs by assistant_id use the newest version's context after set-latest chose another (stateless runs and the assistant's reads are right).",
      threadRunsUseNewest,
    ),
    mutant(
      'as.thread-state-by-assistant',
      'runs',
      ['AS-RUN-002'],
      'Thread state is kept by assistant: a new thread starts with the messages of earlier runs on another thread of the same assistant.',
      threadStateByAssistant,
    ),
    mutant('as.update-fails', 'assistant versions', ['AS-ASST-003'], 'PATCH /assistants/{id} answers 500 and changes nothing.', () => ({
      request: (r) => (r.method === 'PATCH' && assistantPath(r) !== undefined ? answered(500, 'Internal Server Error') : r),
    })),
    mutant('as.delete-answers-500', 'assistant versions', ['AS-ASST-005'], 'DELETE /assistants/{id} answers 500 and the assistant is still there.', () => ({
      request: (r) => (r.method === 'DELETE' && assistantPath(r) !== undefined ? answered(500, 'Internal Server Error') : r),
    })),
  ];
}
