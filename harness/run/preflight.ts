// Before any suite runs, each interface gets one authenticated request the spec defines for it.
// The answer tells a wrong setup from a wrong server: nothing listens, the URL serves something
// else, the key or tenant is refused, or the interface is ready. Only "ready" lets the run go on:
// the other three are the user's setup to fix (exit 2), never a verdict on the target.
import { InterfaceClient, Recorder, type Auth } from '../http/client.ts';
import { describeResponse } from '../http/curl.ts';
import type { Exchange } from '../http/exchange.ts';
import { Limiter } from '../http/limiter.ts';
import type { Credentials, InterfaceName, TargetProfile } from '../profile/profile.ts';

export type PreflightState = 'nothing-listens' | 'not-this-interface' | 'refused' | 'ready';

export interface PreflightResult {
  interface: InterfaceName;
  url: string;
  state: PreflightState;
  /** The request sent, e.g. `GET /v2/deployments`. */
  request: string;
  /** What came back, in a phrase. */
  seen: string;
  /** What to do about it (empty when ready). */
  advice: string;
}

interface Probe {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** The flag that names this interface's URL, for the advice. */
  flag: string;
  /** A 2xx answer must be JSON to be this interface. */
  json: boolean;
}

/** One request per interface, all defined by the spec (4.1, 4.2, 4.3). */
const PROBES: Record<InterfaceName, Probe> = {
  'control-plane': { method: 'GET', path: '/v2/deployments', flag: '--control-plane-url', json: true },
  'agent-server': { method: 'POST', path: '/assistants/search', body: { limit: 1 }, flag: '--agent-server-url', json: true },
  // An empty upload is invalid: a ready endpoint refuses it for its content (400/422), after the key.
  'experiment-upload': { method: 'POST', path: '/api/v1/datasets/upload-experiment', body: {}, flag: '--tracing-url', json: false },
};

/**
 * Setup problems visible without sending anything more. `hostingSeen`: how the agent server
 * answered a request without a key, when it was asked (discovery.ts, hostingBeforeSetup).
 */
export function setupProblems(profile: TargetProfile, interfaces: InterfaceName[], hostingSeen?: string): string[] {
  if (interfaces.includes('agent-server') && profile.agentServerHosting === 'platform' && !profile.apiKey) {
    return [
      `the agent server is platform-hosted (${hostingSeen ?? 'agentServerHosting: platform, the default'}), and no API key was given. ` +
        'Give the key with APC_API_KEY or --api-key; if this agent server runs outside the platform and needs no key, say --agent-server-hosting self-run.',
    ];
  }
  return [];
}

function keyAdvice(probe: Probe, creds: Partial<Credentials>, which: string): string {
  if (!creds.apiKey) return `no ${which === 'second' ? 'second ' : ''}API key was given: set APC_API_KEY (or --api-key)${which === 'second' ? ' for the other tenant (--other-api-key)' : ''}.`;
  return `check that the ${which} key is valid for this target${creds.tenantId ? ` and may act for tenant ${creds.tenantId}` : ''} (--api-key, --tenant-id${which === 'second' ? ', --other-api-key, --other-tenant-id' : ''}), and that ${probe.flag} points at the right environment.`;
}

function classify(iface: InterfaceName, url: string, probe: Probe, exchange: Exchange, creds: Partial<Credentials>, which: string): PreflightResult {
  const base = { interface: iface, url, request: `${probe.method} ${probe.path}` };
  const response = exchange.response;
  // Something that accepts the connection and then hangs or floods is the target's behaviour: the
  // suites judge it (and the client's deadlines keep the run short). Only no connection at all stops here.
  if (!response && !/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/.test(exchange.error ?? '')) {
    return { ...base, state: 'ready', seen: exchange.error ?? 'no answer', advice: '' };
  }
  if (!response) {
    const refused = /ECONNREFUSED/.test(exchange.error ?? '');
    return {
      ...base,
      state: 'nothing-listens',
      seen: refused ? 'nothing: connection refused (nothing listens there)' : `nothing: ${exchange.error ?? 'no answer'}`,
      advice: `check ${probe.flag} and that the server is running, then try again.`,
    };
  }
  const { status } = response;
  if (status === 401 || status === 403) {
    return { ...base, state: 'refused', seen: `${describeResponse(exchange)}: the ${which} key or tenant was refused`, advice: keyAdvice(probe, creds, which) };
  }
  const notJson = probe.json && status >= 200 && status < 300 && response.json === undefined;
  if (status === 404 || status === 405 || notJson) {
    return {
      ...base,
      state: 'not-this-interface',
      seen: `${describeResponse(exchange)}, so this URL does not serve the ${iface} (spec 4 defines ${probe.method} ${probe.path} on it)`,
      advice: `check ${probe.flag}: it must be the ${iface}'s base URL${iface === 'control-plane' ? ' (a self-hosted control plane includes its /api-host prefix)' : ''}, not another interface's.`,
    };
  }
  return { ...base, state: 'ready', seen: `${status}`, advice: '' };
}

/** Sends each interface its request (the second tenant's key too, on the control plane). */
export async function preflight(profile: TargetProfile, interfaces: InterfaceName[]): Promise<PreflightResult[]> {
  const quick: TargetProfile = { ...profile, timeouts: { ...profile.timeouts, requestMs: Math.min(profile.timeouts.requestMs, 10_000) } };
  const recorder = new Recorder();
  const limiter = new Limiter(8);
  const checks = interfaces.flatMap((iface) => {
    const probe = PROBES[iface];
    const client = new InterfaceClient(iface, profile.urls[iface]!, quick, recorder, limiter);
    const send = (auth: Auth) => client.request({ method: probe.method, path: probe.path, ...(probe.body !== undefined ? { body: probe.body } : {}), auth });
    // A self-run agent server may need no key: then it gets none, as a client of it would send.
    const selfRunWithoutKey = iface === 'agent-server' && profile.agentServerHosting === 'self-run' && !profile.apiKey;
    const own = { apiKey: profile.apiKey, tenantId: profile.tenantId };
    const runs = [send(selfRunWithoutKey ? 'none' : 'default').then((e) => classify(iface, client.baseUrl, probe, e, own, 'given'))];
    if (iface === 'control-plane' && profile.otherTenant) {
      runs.push(send(profile.otherTenant).then((e) => classify(iface, client.baseUrl, probe, e, profile.otherTenant!, 'second')));
    }
    return runs;
  });
  return Promise.all(checks);
}

/** One line per setup problem (what was sent, what was seen, what to do); none when the run may go on. */
export async function checkSetup(profile: TargetProfile, interfaces: InterfaceName[], hostingSeen?: string): Promise<string[]> {
  const problems = setupProblems(profile, interfaces, hostingSeen);
  if (problems.length > 0) return problems;
  return (await preflight(profile, interfaces))
    .filter((r) => r.state !== 'ready')
    .map(problemLine);
}

/** A result that is not ready, as a person reads it: where, what was sent and seen, what to do. */
export function problemLine(r: PreflightResult): string {
  return `the ${r.interface} at ${r.url}: ${r.request} answered ${r.seen}. What to do: ${r.advice}`;
}
