// Run streams of the `echo` graph: time to the first event and to the close, p50/p99, for a
// stateless run (POST /runs/stream) and a thread run (POST /threads/{id}/runs/stream). With a
// peer agent server, each run on the reference is followed by the same run on the peer, so both
// see the same machine at the same moment.
import { Agent, request } from 'undici';
import { STREAM_RUN } from './support/bodies.ts';
import { percentile, round } from './support/load.ts';

export interface AgentServer {
  label: string;
  url: string;
  headers: Record<string, string>;
}

interface Timing {
  first: number;
  close: number;
}

export interface StreamFigures {
  server: string;
  kind: 'stateless' | 'thread';
  runs: number;
  firstEventMs: { p50: number; p99: number };
  closeMs: { p50: number; p99: number };
}

const dispatcher = new Agent({ connections: 4 });

async function timeStream(server: AgentServer, path: string): Promise<Timing> {
  const started = performance.now();
  const response = await request(server.url + path, { method: 'POST', headers: { ...server.headers, 'content-type': 'application/json' }, body: STREAM_RUN, dispatcher });
  let first: number | undefined;
  for await (const chunk of response.body) {
    if (first === undefined && (chunk as Buffer).includes('event:')) first = performance.now() - started;
  }
  if (response.statusCode !== 200 || first === undefined) throw new Error(`${server.label} ${path} answered ${response.statusCode} without events`);
  return { first, close: performance.now() - started };
}

async function newThread(server: AgentServer): Promise<string> {
  const response = await request(`${server.url}/threads`, { method: 'POST', headers: { ...server.headers, 'content-type': 'application/json' }, body: '{}', dispatcher });
  const body = (await response.body.json()) as { thread_id?: string };
  if (response.statusCode !== 200 || !body.thread_id) throw new Error(`${server.label} POST /threads answered ${response.statusCode}`);
  return body.thread_id;
}

function figures(server: string, kind: StreamFigures['kind'], samples: Timing[]): StreamFigures {
  const firsts = samples.map((s) => s.first);
  const closes = samples.map((s) => s.close);
  return {
    server,
    kind,
    runs: samples.length,
    firstEventMs: { p50: round(percentile(firsts, 50)), p99: round(percentile(firsts, 99)) },
    closeMs: { p50: round(percentile(closes, 50)), p99: round(percentile(closes, 99)) },
  };
}

/** `runs` streams of each kind on every server, interleaved run by run; 20 unmeasured first. */
export async function streams(servers: AgentServer[], runs: number): Promise<StreamFigures[]> {
  const threads = await Promise.all(servers.map(newThread));
  const kinds = [
    ['stateless', () => '/runs/stream'],
    ['thread', (i: number) => `/threads/${threads[i]}/runs/stream`],
  ] as const;
  const results: StreamFigures[] = [];
  for (const [kind, path] of kinds) {
    const samples: Timing[][] = servers.map(() => []);
    for (let run = -20; run < runs; run += 1) {
      for (const [i, server] of servers.entries()) {
        const timing = await timeStream(server, path(i));
        if (run >= 0) samples[i]!.push(timing);
      }
    }
    servers.forEach((server, i) => results.push(figures(server.label, kind, samples[i]!)));
  }
  return results;
}

export async function closeStreams(): Promise<void> {
  await dispatcher.close();
}
