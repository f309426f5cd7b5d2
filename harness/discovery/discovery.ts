// Discovery of what a target offers, with cheap requests: which source kinds the control plane
// accepts, which optional endpoints answer (never one the spec defines: those are always judged), whether the agent server demands a key, whether the
// fixture graphs exist, whether a second key works. Everything created is named with the run's
// prefix and deleted again. The fixture graphs are run, not only created (fixture-graphs.ts). `apc init` writes the findings as a commented profile; `apc certify`
// without a profile applies them and prints them.
//
// A capability is left out only on a clear "no" (404/405 for an endpoint, a 4xx for a source kind):
// no answer, or a 5xx, keeps the default, so a broken target is judged by the suites, not hidden.
import { baseCreate } from '../../generators/control-plane/create-payloads.ts';
import { isObject } from '../../schemas/is-object.ts';
import { InterfaceClient, Recorder, type RequestGuard } from '../http/client.ts';
import { BudgetSpent } from '../budget/guard.ts';
import type { Exchange } from '../http/exchange.ts';
import type { ProfileSettings } from '../profile/sources.ts';
import type { Discovery } from '../profile/discovered.ts';
import { Limiter } from '../http/limiter.ts';
import { proveFixtureGraphs } from './fixture-graphs.ts';
import { isTerminal } from '../../schemas/revision-status.ts';
import { BUSY_PATCH_PROBES, SOURCE_KINDS, type AgentServerHosting, type BusyPatch, type OptionalEndpoint, type SourceKind, type TargetProfile } from '../profile/profile.ts';

const status = (e: Exchange) => e.response?.status;
const ok = (e: Exchange) => (status(e) ?? 0) >= 200 && (status(e) ?? 0) < 300;
const clearNo = (e: Exchange) => status(e) === 404 || status(e) === 405;
const seen = (e: Exchange) => (e.response ? `${e.response.status}` : `no answer (${e.error ?? 'unknown'})`);
const firstOf = (body: unknown): Record<string, unknown> | undefined => {
  const list = Array.isArray(body) ? body : isObject(body) && Array.isArray(body.resources) ? body.resources : isObject(body) ? [body] : [];
  const first: unknown = list[0];
  return isObject(first) ? first : undefined;
};

export interface DiscoverOptions {
  profile: TargetProfile;
  /** Every resource made is named with this prefix (`apc-xxxxxx`). */
  runId: string;
  /** The mode was given: keep it rather than infer it. */
  modeGiven: boolean;
  /** Keeps every exchange (what the probes created and deleted is counted from it); default: a new one. */
  recorder?: Recorder;
  /** Asked before a control-plane request that may create (`apc init`'s budget, harness/budget/guard.ts). */
  guard?: RequestGuard;
}

export async function discover({ profile, runId, modeGiven, recorder = new Recorder(), guard }: DiscoverOptions): Promise<Discovery> {
  const limiter = new Limiter(4);
  const client = (iface: 'control-plane' | 'agent-server' | 'experiment-upload') =>
    profile.urls[iface]
      ? new InterfaceClient(iface, profile.urls[iface]!, profile, recorder, limiter, iface === 'control-plane' && guard ? { guard } : {})
      : undefined;
  const found: Discovery = { sourceNotes: {}, endpoints: [], endpointNotes: {}, fixtures: {}, notes: [] };
  const endpoint = (name: OptionalEndpoint, exchange: Exchange, what: string) => {
    if (clearNo(exchange)) found.endpointNotes[name] = `${what} answered ${seen(exchange)}: not offered`;
    else {
      found.endpoints.push(name);
      found.endpointNotes[name] = ok(exchange)
        ? `${what} answered ${seen(exchange)}`
        : `${what} answered ${seen(exchange)}; kept, as only 404/405 says it is absent`;
    }
  };

  const cp = client('control-plane');
  if (cp) await discoverControlPlane(cp, profile, runId, modeGiven, found, endpoint);
  const as = client('agent-server');
  if (as) await discoverAgentServer(as, profile, runId, found);
  const upload = client('experiment-upload');
  if (upload) {
    endpoint('experiment-reads', await upload.get('/api/v1/sessions', { query: { limit: 1 } }), 'GET /api/v1/sessions?limit=1');
    const created = await upload.post('/api/v1/datasets', { name: `${runId}-init-dataset`, description: 'made by apc init; deleted at once' });
    endpoint('dataset-create', created, 'POST /api/v1/datasets');
    const id = isObject(created.response?.json) ? created.response.json.id : undefined;
    if (ok(created) && typeof id === 'string') await upload.delete(`/api/v1/datasets/${id}`);
  }
  return found;
}

type Endpoint = (name: OptionalEndpoint, exchange: Exchange, what: string) => void;

async function discoverControlPlane(
  cp: InterfaceClient,
  profile: TargetProfile,
  runId: string,
  modeGiven: boolean,
  found: Discovery,
  endpoint: Endpoint,
): Promise<void> {
  // The integrations endpoint is the spec's own (always judged): asked only for its first id.
  const integrations = await cp.get('/v1/integrations/gitforge/install');
  const integrationId = firstOf(integrations.response?.json)?.id;
  if (typeof integrationId === 'string') found.fixtures.gitforge = { integrationId };
  const listeners = await cp.get('/v2/listeners');
  endpoint('listeners', listeners, 'GET /v2/listeners');
  const listener = firstOf(listeners.response?.json);
  if (typeof listener?.id === 'string') found.fixtures.listenerId = listener.id;
  const namespaces = isObject(listener?.compute_config) ? listener.compute_config.cluster_namespaces : undefined;
  if (Array.isArray(namespaces) && typeof namespaces[0] === 'string') found.fixtures.clusterNamespace = namespaces[0];

  const fixtures = {
    ...profile.fixtures,
    ...found.fixtures,
    gitforge: { ...profile.fixtures.gitforge, ...found.fixtures.gitforge },
  };
  const created: string[] = [];
  const accepted: SourceKind[] = [];
  for (const source of SOURCE_KINDS) {
    const body = baseCreate(
      { mode: profile.controlPlaneMode, sources: SOURCE_KINDS, fixtures, namePrefix: runId },
      source,
      `${runId}-init-${source.replace(/_/g, '-')}`,
    );
    const answer = await unlessSpent(() => cp.post('/v2/deployments', body));
    if (typeof answer === 'string') {
      // Not probed: the source stays as the profile has it, and the note says why.
      if (profile.sources.includes(source)) accepted.push(source);
      found.sourceNotes[source] = `not probed (${answer}); kept as the profile has it`;
      continue;
    }
    const id = isObject(answer.response?.json) ? answer.response.json.id : undefined;
    if (ok(answer) && typeof id === 'string') created.push(id);
    const refused = (status(answer) ?? 0) >= 400 && (status(answer) ?? 0) < 500;
    if (!refused) {
      accepted.push(source);
      found.sourceNotes[source] = ok(answer)
        ? `POST /v2/deployments of a deployment with source ${source} answered ${seen(answer)}`
        : `POST /v2/deployments answered ${seen(answer)}; kept, as only a 4xx says it is refused`;
    } else found.sourceNotes[source] = `POST /v2/deployments of a deployment with source ${source} answered ${seen(answer)}: refused`;
  }
  found.sources = accepted;
  if (created[0]) {
    const busy = await busyPatchOf(cp, created[0]);
    if (busy.busyPatch) found.busyPatch = busy.busyPatch;
    found.notes.push({ key: 'busyPatch', how: busy.how });
  }
  for (const id of created) {
    const gone = await cp.delete(`/v2/deployments/${id}`, { query: { delete_tracing_project: true } });
    if (!ok(gone) && status(gone) !== 404) await cp.delete(`/v2/deployments/${id}`);
  }
  if (modeGiven) found.notes.push({ key: 'controlPlaneMode', how: 'given' });
  else {
    // gitforge is hosted only, external_container self-hosted only (spec 2.1).
    const selfHosted = accepted.includes('external_container') && !accepted.includes('gitforge');
    found.controlPlaneMode = selfHosted ? 'self-hosted' : 'hosted';
    found.notes.push({
      key: 'controlPlaneMode',
      how: selfHosted
        ? 'external_container accepted and gitforge refused (spec 2.1: these are self-hosted and hosted only)'
        : 'external_container not accepted alone (spec 2.1: gitforge is hosted only, external_container self-hosted only)',
    });
  }
  if (profile.otherTenant) {
    const other = await cp.get('/v2/deployments', { auth: profile.otherTenant });
    found.otherTenant = ok(other);
    found.notes.push({ key: 'otherTenant', how: `GET /v2/deployments with the second key answered ${seen(other)}${ok(other) ? '' : ': left out'}` });
  }
}

/** The request's answer; the reason instead when the budget kept it from being sent. */
async function unlessSpent(send: () => Promise<Exchange>): Promise<Exchange | string> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof BudgetSpent) return error.message;
    throw error;
  }
}

/**
 * Whether the target refuses a revision-creating PATCH while the latest revision is in progress
 * (as an older platform did): a secrets PATCH sent while the newest revision has not ended. A
 * revision that ends before the PATCH arrives is given one more try with a fresh revision.
 */
async function busyPatchOf(cp: InterfaceClient, id: string): Promise<{ busyPatch?: BusyPatch; how: string }> {
  const path = `/v2/deployments/${id}`;
  for (let attempt = 1; attempt <= BUSY_PATCH_PROBES; attempt++) {
    const read = await cp.get(path);
    const latest = isObject(read.response?.json) ? read.response.json.latest_revision_id : undefined;
    const revision = typeof latest === 'string' ? await cp.get(`${path}/revisions/${latest}`) : undefined;
    const revisionStatus = isObject(revision?.response?.json) ? revision.response.json.status : undefined;
    const probe = await unlessSpent(() => cp.patch(path, { secrets: [{ name: 'APC_INIT_PROBE', value: String(attempt) }] }));
    if (typeof probe === 'string') return { how: `not probed (${probe}); kept the default` };
    if (typeof revisionStatus !== 'string') return { how: `the deployment's latest revision could not be read; kept the default` };
    // It had ended: the PATCH just made a fresh revision, asked about next.
    if (isTerminal(revisionStatus)) continue;
    const detail = isObject(probe.response?.json) ? probe.response.json.detail : undefined;
    const what = `a secrets PATCH while revision ${String(latest)} was ${revisionStatus} answered ${seen(probe)}`;
    if (ok(probe)) return { busyPatch: 'accepted', how: what };
    if ((status(probe) ?? 0) >= 400 && (status(probe) ?? 0) < 500 && typeof detail === 'string') return { busyPatch: 'refused', how: `${what} (${detail})` };
    return { how: `${what}; kept the default` };
  }
  return { how: 'every revision ended before a PATCH reached it; kept the default (accepted)' };
}

/** How the agent server is hosted, from POST /assistants/search sent without a key. */
async function hostingOf(as: InterfaceClient): Promise<{ hosting: AgentServerHosting; how: string }> {
  const anonymous = await as.post('/assistants/search', { limit: 1 }, { auth: 'none' });
  const demands = status(anonymous) === 401 || status(anonymous) === 403;
  return {
    hosting: ok(anonymous) ? 'self-run' : 'platform',
    how: demands
      ? `POST /assistants/search without a key answered ${seen(anonymous)}: it demands a key, as a platform-hosted agent server must (spec 5)`
      : ok(anonymous)
        ? `POST /assistants/search without a key answered ${seen(anonymous)}: it needs no key, so it runs outside the platform (the auth rules are not applicable)`
        : `POST /assistants/search without a key answered ${seen(anonymous)}; assumed platform-hosted`,
  };
}

/**
 * Before the preflight of a run given URLs, no profile and no key, with the hosting named nowhere
 * (flag, APC_AGENT_SERVER_HOSTING): the agent server is asked without a key whether it needs one.
 * A keyless agent server is self-run and the run goes on; one that demands a key stays
 * platform-hosted, and the missing key is the user's setup. Undefined: nothing to ask.
 */
export async function hostingBeforeSetup(
  profile: TargetProfile,
  given: ProfileSettings,
  env: NodeJS.ProcessEnv,
): Promise<{ hosting: AgentServerHosting; how: string } | undefined> {
  const url = profile.urls['agent-server'];
  const named = given.profileFile || env.APC_PROFILE || given.agentServerHosting || env.APC_AGENT_SERVER_HOSTING;
  if (!url || profile.apiKey || named) return undefined;
  const quick = { ...profile, timeouts: { ...profile.timeouts, requestMs: Math.min(profile.timeouts.requestMs, 10_000) } };
  return hostingOf(new InterfaceClient('agent-server', url, quick, new Recorder(), new Limiter(1)));
}

/** The agent server's hosting and fixture graphs; its endpoints (/docs too) are the spec's, always judged. */
async function discoverAgentServer(as: InterfaceClient, profile: TargetProfile, runId: string, found: Discovery): Promise<void> {
  const { hosting, how } = await hostingOf(as);
  found.agentServerHosting = hosting;
  found.notes.push({ key: 'agentServerHosting', how });
  const auth = found.agentServerHosting === 'self-run' && !profile.apiKey ? ('none' as const) : ('default' as const);
  const fixtures = await proveFixtureGraphs(as, profile, runId, auth);
  if (fixtures.failingGraphId) found.fixtures.failingGraphId = fixtures.failingGraphId;
  found.notes.push(...fixtures.notes);
}

/** The profile with the discovery applied: what was found replaces the defaults. */
export function applyDiscovery(profile: TargetProfile, found: Discovery): TargetProfile {
  // Endpoints of an interface that was not probed keep what the profile said.
  const keptEndpoints = profile.endpoints.filter((e) => !(e in found.endpointNotes));
  return {
    ...profile,
    ...(found.controlPlaneMode ? { controlPlaneMode: found.controlPlaneMode } : {}),
    ...(found.busyPatch ? { busyPatch: found.busyPatch } : {}),
    ...(found.agentServerHosting ? { agentServerHosting: found.agentServerHosting } : {}),
    ...(found.sources ? { sources: found.sources } : {}),
    endpoints: [...new Set([...keptEndpoints, ...found.endpoints])],
    fixtures: { ...profile.fixtures, ...found.fixtures, gitforge: { ...profile.fixtures.gitforge, ...found.fixtures.gitforge } },
    ...(found.otherTenant === false ? { otherTenant: undefined } : {}),
  };
}
