// Hostile targets: servers that hang, reset, drip, flood or answer garbage, and the reference
// behind a proxy whose streams never end or stall, or which fails at random. A run against each
// must end, with a report, within its bound: a few deadlines of the default profile (10 s per
// request, 15 s per stream), which the circuit breakers keep it inside. The selftest runs them
// beside its mutants on a busy machine, so their bound is 90 s; test/cli/hostile-*.test.ts holds
// the same targets, run alone, to 60 s.
import { defaultProfile } from '../profile/profile.ts';
import { startReferenceTarget } from '../reference/reference-target.ts';
import { drippingServer, endlessBodyServer, garbageServer, hugeBodyServer, refusingPort, resettingServer, silentServer } from './hostile-servers.ts';
import { startProxy, type ProxiedAnswer, type ProxyRules } from '../proxy/proxy.ts';
import type { HostileTarget } from './subjects.ts';

const { requestMs, streamMs } = defaultProfile().timeouts;
const REQUEST_BOUND_MS = 9 * requestMs;
const STREAM_BOUND_MS = 6 * streamMs;

const isStream = (a: ProxiedAnswer) => /text\/event-stream/.test(a.headers['content-type'] ?? '');

/** Proxy rules that send each event stream's first event, then hold the stream open with nothing more. */
export function stallAfterFirstEvent(): ProxyRules {
  return {
    chunks: (a) => {
      if (!isStream(a)) return [a.body];
      const text = a.body.toString('utf8');
      const end = text.indexOf('\n\n');
      return [Buffer.from(end === -1 ? text : text.slice(0, end + 2))];
    },
    holdOpen: (a) => (isStream(a) ? {} : undefined),
  };
}

/** The reference with `rules` in front of one interface; the run uses its key and tenant. */
function bentReference(iface: 'control-plane' | 'agent-server', rules: () => ProxyRules): HostileTarget['start'] {
  return async () => {
    const reference = await startReferenceTarget({ mode: 'hosted' });
    const proxy = await startProxy(reference.urls[iface], rules());
    const [own] = reference.grants;
    return {
      url: proxy.url,
      apiKey: own!.key,
      tenantId: own!.tenants[0]!,
      close: async () => {
        await proxy.close();
        await reference.close();
      },
    };
  };
}

export function hostileTargets(): HostileTarget[] {
  const bound = REQUEST_BOUND_MS;
  return [
    {
      kind: 'hostile',
      id: 'refuses-connections',
      what: 'Nothing listens: every connection is refused (a setup error, exit 2).',
      interface: 'control-plane',
      start: async () => ({ url: await refusingPort(), close: async () => undefined }),
      boundMs: bound,
    },
    { kind: 'hostile', id: 'never-answers', what: 'Accepts connections and never sends a byte.', interface: 'control-plane', start: silentServer, boundMs: bound },
    { kind: 'hostile', id: 'resets-connections', what: 'Resets every connection as soon as it is accepted.', interface: 'control-plane', start: resettingServer, boundMs: bound },
    {
      kind: 'hostile',
      id: 'answers-garbage',
      what: 'Answers HTML, JSON that does not parse, and bodies cut short, in turn.',
      interface: 'control-plane',
      start: garbageServer,
      scope: ['CP-READ-*', 'CP-CREATE-001'],
      boundMs: bound,
    },
    { kind: 'hostile', id: 'huge-bodies', what: 'Answers every request with a 10 MB JSON body.', interface: 'control-plane', start: () => hugeBodyServer(), scope: ['CP-READ-001', 'CP-CREATE-001'], boundMs: bound },
    { kind: 'hostile', id: 'drips-bytes', what: 'Sends one byte of its body every 200 ms, for as long as the client waits.', interface: 'control-plane', start: () => drippingServer(), scope: ['CP-ERR-*', 'CP-READ-*'], boundMs: bound },
    {
      kind: 'hostile',
      id: 'endless-body',
      what: 'Sends a JSON body that never ends, as fast as the client reads.',
      interface: 'control-plane',
      start: endlessBodyServer,
      scope: ['CP-CREATE-*', 'CP-READ-001'],
      boundMs: bound,
    },
    {
      kind: 'hostile',
      id: 'streams-never-end',
      what: 'The reference agent server, its event streams held open with a comment every second.',
      interface: 'agent-server',
      start: bentReference('agent-server', () => ({ holdOpen: (a) => (isStream(a) ? { every: { ms: 1_000, text: ': still here\n\n' } } : undefined) })),
      boundMs: STREAM_BOUND_MS,
    },
    {
      kind: 'hostile',
      id: 'streams-stall',
      what: 'The reference agent server, its event streams stalled after their first event.',
      interface: 'agent-server',
      start: bentReference('agent-server', stallAfterFirstEvent),
      scope: ['AS-SSE-*', 'AS-RUN-*'],
      boundMs: STREAM_BOUND_MS,
    },
    {
      kind: 'hostile',
      id: 'fails-at-random',
      what: 'The reference control plane answering every third request with a 500.',
      interface: 'control-plane',
      start: bentReference('control-plane', () => {
        let n = 0;
        return { request: (r) => (++n % 3 === 0 ? { status: 500, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"detail":"Internal Server Error"}') } : r) };
      }),
      scope: ['CP-CREATE-*', 'CP-READ-*', 'CP-ERR-*'],
      boundMs: bound,
    },
  ];
}
