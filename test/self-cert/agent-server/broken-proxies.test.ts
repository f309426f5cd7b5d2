// Negative self-tests of the agent server suites with a proxy in front of the reference that
// breaks rules no fault switch covers: deletion, threads, input, run_id, auth, /docs, request
// validation, and the events of a stream mode. Rules that do not get in each other's way share
// a run; each must fail for its own reason.
import { afterAll, describe, test } from 'vitest';
import { certifyByUrl, startTarget, type Reference } from '../../support/reference-target.ts';
import { expectFailed } from '../../support/report-expectations.ts';
import { editJson, editRequestJson, startProxy, type Proxy, type ProxiedAnswer, type ProxiedRequest } from '../../../harness/selftest/proxy.ts';
import { rewriteStream, streamModeOf } from '../../../harness/selftest/sse-rewrite.ts';

const started: (Proxy | Reference)[] = [];
afterAll(async () => {
  for (const s of started.reverse()) await s.close();
});

async function brokenTarget(faults: string[], rules: (apiKey: string) => Parameters<typeof startProxy>[1]) {
  const target = await startTarget(faults);
  started.push(target);
  const proxy = await startProxy(target.server.urls.agentServer, rules(target.apiKey));
  started.push(proxy);
  return { url: proxy.url, apiKey: target.apiKey };
}

const isRun = (r: ProxiedRequest) => r.method === 'POST' && /\/runs\/stream$/.test(r.path.split('?')[0]!);

describe('agent server suites fail a target that breaks their rule', () => {
  test('deletion ignored, threads forgetting, input ignored, no run_id, set-latest ignored', async () => {
    const target = await brokenTarget(['as.set-latest-ignored'], () => ({
      request(r): ProxiedRequest | ProxiedAnswer {
        if (r.method === 'DELETE' && /^\/assistants\/[^/]+$/.test(r.path)) return { status: 204, headers: {}, body: Buffer.alloc(0) };
        if (!isRun(r)) return r;
        const stateless = { ...r, path: '/runs/stream' };
        return editRequestJson(stateless, (body) => {
          const input = body.input as { messages?: { content?: unknown }[] } | undefined;
          for (const m of input?.messages ?? []) m.content = 'rewritten by a proxy';
        });
      },
      answer: (r, a) =>
        isRun(r)
          ? rewriteStream(a, (blocks) =>
              blocks.map((b) => (b.event === 'metadata' && b.data ? { ...b, data: JSON.stringify({ ...JSON.parse(b.data), run_id: undefined }) } : b)),
            )
          : a,
    }));
    const run = await certifyByUrl({ agentServerUrl: target.url, apiKey: target.apiKey, requirements: ['AS-ASST-004', 'AS-ASST-005', 'AS-RUN-001', 'AS-RUN-002', 'AS-RUN-003', 'AS-SSE-003'] });
    expectFailed(run, {
      'AS-ASST-004': /After setting version 2 as latest, a run by assistant_id used another context/,
      'AS-ASST-005': /After deleting the assistant, setting its version 1 as latest was not refused/,
      'AS-RUN-001': /did not run the assistant on its input/,
      'AS-RUN-002': /did not see the messages of the first/,
      'AS-RUN-003': /did not run the assistant on its input/,
      'AS-SSE-003': /does not carry a run_id/,
    });
  });

  test('threads without thread_id, keys not checked, no /docs, graph_id not required, name not kept', async () => {
    const target = await brokenTarget([], (apiKey) => ({
      request(r): ProxiedRequest | ProxiedAnswer {
        if (r.method === 'GET' && r.path === '/docs') return { status: 404, headers: { 'content-type': 'text/plain' }, body: Buffer.from('not here') };
        const keyed = { ...r, headers: { ...r.headers, 'x-api-key': apiKey } };
        if (r.method === 'POST' && r.path === '/assistants') return editRequestJson(keyed, (body) => void (body.graph_id ??= 'echo'));
        return keyed;
      },
      answer(r, a) {
        if (r.method === 'POST' && r.path === '/threads') return editJson(a, (t) => ((t.id = t.thread_id), delete t.thread_id));
        if (r.method === 'POST' && r.path === '/assistants') return editJson(a, (x) => void (x.name = `${String(x.name)}-renamed`));
        return a;
      },
    }));
    const run = await certifyByUrl({ agentServerUrl: target.url, apiKey: target.apiKey, requirements: ['AS-THR-001', 'AS-AUTH-001', 'AS-AUTH-002', 'AS-DOCS-001', 'AS-ASST-007', 'AS-ASST-001'] });
    expectFailed(run, {
      'AS-THR-001': /answered without a thread_id/,
      'AS-AUTH-001': /without an X-Api-Key header was not refused/,
      'AS-AUTH-002': /not a valid key was not refused/,
      'AS-DOCS-001': /GET \/docs failed/,
      'AS-ASST-007': /without graph_id was not refused/,
      'AS-ASST-001': /does not carry the name sent/,
    });
  });

  test('an event without data, and stream modes whose events are missing', async () => {
    const target = await brokenTarget(['as.no-data-line'], () => ({
      answer(r, a) {
        if (!isRun(r)) return a;
        const mode = streamModeOf(r);
        if (mode === 'updates') return rewriteStream(a, (blocks) => blocks.filter((b) => b.event !== 'updates'));
        if (mode === 'messages') return rewriteStream(a, (blocks) => blocks.filter((b) => b.event === 'metadata'));
        return rewriteStream(a, (blocks) => blocks);
      },
    }));
    const run = await certifyByUrl({ agentServerUrl: target.url, apiKey: target.apiKey, requirements: ['AS-SSE-002', 'AS-SSE-006', 'AS-SSE-008'] });
    expectFailed(run, {
      'AS-SSE-002': /an event line but no data line/,
      'AS-SSE-006': /carried no updates event/,
      'AS-SSE-008': /no event besides metadata/,
    });
  });
});
