// The target's request latency, measured before a run (and by `apc certify --plan`) with a few
// cheap requests per interface: a read, and a POST that creates nothing on a target that follows
// the spec (a search, or a create refused for its empty body). A platform whose creates provision
// a database answers POSTs seconds late while its reads stay quick, so the two are measured apart;
// the expected wall time (expected-time.ts) multiplies them by the run's requests.
//
// A target that (wrongly) accepts the empty create or upload must not pay for the measure: the
// POST is not sent again after it created something, a deployment it created is deleted at once,
// and what it created is told to the run (`created`), which counts it in its report and its budget.
import { InterfaceClient, Recorder, type RequestOptions } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import type { TransientTally } from '../http/throttling.ts';
import { Limiter } from '../http/limiter.ts';
import { addCreated, createdBy, type Created } from '../conformance/created.ts';
import { deleteBoundMs } from '../conformance/awaiting-delete.ts';
import type { InterfaceName, TargetProfile } from '../profile/profile.ts';
import type { InterfaceLatency, Latency } from '../conformance/request-count.ts';
import { LeftoverSweep } from './leftovers.ts';

export type { InterfaceLatency, Latency };

/** Samples of each kind; the median is kept, so one slow answer does not decide. */
export const LATENCY_SAMPLES = 3;

/**
 * What is sent per interface. Any answer measures the latency (a 404 too); none of them creates
 * anything on a target that follows the spec: the empty create and the empty upload are refused
 * for their content (spec 2.1, 2.8), as the preflight's empty upload is.
 */
const SAMPLES: Record<InterfaceName, { read: RequestOptions; post: RequestOptions }> = {
  'control-plane': { read: { method: 'GET', path: '/v2/deployments', query: { limit: 1 } }, post: { method: 'POST', path: '/v2/deployments', body: {} } },
  'agent-server': {
    read: { method: 'GET', path: '/assistants/00000000-0000-4000-8000-000000000000' },
    post: { method: 'POST', path: '/assistants/search', body: { limit: 1 } },
  },
  'experiment-upload': {
    read: { method: 'GET', path: '/api/v1/sessions', query: { limit: 1 } },
    post: { method: 'POST', path: '/api/v1/datasets/upload-experiment', body: {} },
  },
};

export interface LatencyHooks {
  /** The 429s and 503s the samples waited out: they are the run's too (the report's "waited" line), and a platform's blips may fall on them. */
  waited?: (tally: TransientTally) => void;
  /** What the samples created on a target that accepted an empty create or upload (deployments already deleted), and what deleting them left. */
  created?: (created: Created, problems: string[]) => void;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const createdAny = (created: Created): boolean => Object.values(created).some((n) => (n ?? 0) > 0);

/** A budget with no room for one create: the empty create is not sent at all (a target could accept it). */
const noRoomToCreate = (profile: TargetProfile): boolean => profile.budget?.deployments === 0 || profile.budget?.revisions === 0;

/** Deletes the deployments the empty creates made; the problems, as the run's cleanup words them. */
async function deleteCreated(profile: TargetProfile, exchanges: readonly Exchange[]): Promise<string[]> {
  const accepted = exchanges.filter((e) => e.interface === 'control-plane' && e.request.method === 'POST' && createdAny(createdBy([e], profile)));
  if (accepted.length === 0) return [];
  const sweep = new LeftoverSweep(profile, Math.min(profile.timeouts.requestMs, 10_000), Math.min(deleteBoundMs(profile), 30_000));
  const problems = await Promise.all(
    accepted.map((exchange) => {
      const id = (exchange.response?.json as { id?: unknown } | undefined)?.id;
      if (typeof id !== 'string')
        return `the latency probe's empty create was accepted (HTTP ${exchange.response?.status}) without an id: it could not be deleted`;
      return sweep.delete({ interface: 'control-plane', kind: 'deployment', id, name: "(the latency probe's empty create)", runId: '' });
    }),
  );
  return problems.filter((p): p is string => p !== undefined).map((p) => `cleanup of the latency probe: ${p}`);
}

/**
 * Measures each interface's latency: the interfaces side by side, and within one its reads beside
 * its POSTs, the samples of each kind one after another (a POST stops at the first that created
 * something: that one sample is then the measure).
 */
export async function measureLatency(profile: TargetProfile, interfaces: InterfaceName[], hooks: LatencyHooks = {}): Promise<Latency> {
  // A sample is cheap: bounded like the preflight's requests, whatever the profile's deadline.
  const quick: TargetProfile = { ...profile, timeouts: { ...profile.timeouts, requestMs: Math.min(profile.timeouts.requestMs, 10_000) } };
  const created: Created = {};
  const sent: Exchange[] = [];
  const measured = await Promise.all(
    interfaces.map(async (name) => {
      const recorder = new Recorder();
      const client = new InterfaceClient(name, profile.urls[name]!, quick, recorder, new Limiter(2));
      // A request that got no answer measures nothing: the interface is left out (the preflight says why).
      const timed = async (options: RequestOptions) => {
        const times: number[] = [];
        for (let i = 0; i < LATENCY_SAMPLES; i++) {
          const exchange = await client.request(options);
          if (!exchange.response) return undefined;
          times.push(exchange.durationMs);
          if (createdAny(createdBy([exchange], profile))) break;
        }
        return median(times);
      };
      const skipPost = name === 'control-plane' && noRoomToCreate(profile);
      const [readMs, postMs] = await Promise.all([timed(SAMPLES[name].read), skipPost ? undefined : timed(SAMPLES[name].post)]);
      addCreated(created, createdBy(recorder.exchanges, profile));
      sent.push(...recorder.exchanges);
      hooks.waited?.(recorder.transient);
      if (readMs === undefined) return [];
      // Without room for a create, the POSTs' latency is taken as the reads': the run will send no create either.
      if (skipPost) return [[name, { readMs, postMs: readMs }] as const];
      return postMs === undefined ? [] : [[name, { readMs, postMs }] as const];
    }),
  );
  if (createdAny(created)) hooks.created?.(created, await deleteCreated(quick, sent));
  return Object.fromEntries(measured.flat());
}
