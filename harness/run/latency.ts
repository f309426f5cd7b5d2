// The target's request latency, measured before a run (and by `apc certify --plan`) with a few
// cheap requests per interface: a read, and a POST that creates nothing on a target that follows
// the spec (a search, or a create refused for its empty body). A platform whose creates provision
// a database answers POSTs seconds late while its reads stay quick, so the two are measured apart;
// the expected wall time (expected-time.ts) multiplies them by the run's requests.
import { InterfaceClient, Recorder, type RequestOptions } from '../http/client.ts';
import type { TransientTally } from '../http/throttling.ts';
import { Limiter } from '../http/limiter.ts';
import type { InterfaceName, TargetProfile } from '../profile/profile.ts';
import type { InterfaceLatency, Latency } from '../conformance/request-count.ts';

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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * Measures each interface's latency; the samples of one interface go one after another, the
 * interfaces side by side. `waited` gets the 429s and 503s the samples waited out: they are the
 * run's too (the report's "waited" line), and a platform's blips may fall on them.
 */
export async function measureLatency(profile: TargetProfile, interfaces: InterfaceName[], waited?: (tally: TransientTally) => void): Promise<Latency> {
  // A sample is cheap: bounded like the preflight's requests, whatever the profile's deadline.
  const quick: TargetProfile = { ...profile, timeouts: { ...profile.timeouts, requestMs: Math.min(profile.timeouts.requestMs, 10_000) } };
  const measured = await Promise.all(
    interfaces.map(async (name) => {
      const recorder = new Recorder();
      const client = new InterfaceClient(name, profile.urls[name]!, quick, recorder, new Limiter(1));
      // A request that got no answer measures nothing: the interface is left out (the preflight says why).
      const timed = async (options: RequestOptions) => {
        const times: number[] = [];
        for (let i = 0; i < LATENCY_SAMPLES; i++) {
          const exchange = await client.request(options);
          if (!exchange.response) return undefined;
          times.push(exchange.durationMs);
        }
        return median(times);
      };
      const readMs = await timed(SAMPLES[name].read);
      const postMs = readMs === undefined ? undefined : await timed(SAMPLES[name].post);
      waited?.(recorder.transient);
      return readMs === undefined || postMs === undefined ? [] : [[name, { readMs, postMs }] as const];
    }),
  );
  return Object.fromEntries(measured.flat());
}
