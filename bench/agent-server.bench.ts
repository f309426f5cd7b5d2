// Benchmark of the reference agent server over loopback, in process: time to the first event
// and to the end of an `echo` run stream (p50/p99), and POST /assistants requests per second.
// Shared machines are noisy, so each stream figure is also given as a ratio to a plain GET /ok
// measured in the same run: the ratio is what to compare between runs and machines.
//
//   npx tsx bench/agent-server.bench.ts [--runs 300] [--seconds 3] [--concurrency 8] [--database-url <postgres url>]
//
// A plain script (not `vitest bench`): it needs percentiles of its own measurements. It prints a
// table and, last, one JSON line for tooling.
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { buildAgentServerApp } from '../reference-impl/agent-server/app.ts';
import { createContext } from '../reference-impl/context.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '8' },
    'database-url': { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const SECONDS = Number(args.seconds);
const CONCURRENCY = Number(args.concurrency);

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const { ctx, close } = createContext({ ...(args['database-url'] && { databaseUrl: args['database-url'] }) });
const app = await buildAgentServerApp(ctx);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
const origin = `http://127.0.0.1:${address.port}`;
const dispatcher = new Agent({ connections: CONCURRENCY * 2 });
const headers = { 'x-api-key': ctx.auth.grants[0]!.key, 'content-type': 'application/json' };

async function post(path: string, body: unknown): Promise<{ statusCode: number; text: () => Promise<string> }> {
  const response = await request(origin + path, { method: 'POST', headers, body: JSON.stringify(body), dispatcher });
  return { statusCode: response.statusCode, text: () => response.body.text() };
}

/** One run stream: ms to the first event's bytes, and ms to the end of the response. */
async function timeStream(path: string): Promise<{ first: number; total: number }> {
  const started = performance.now();
  const response = await request(origin + path, {
    method: 'POST',
    headers,
    body: JSON.stringify({ assistant_id: 'echo', input: { messages: [{ role: 'user', content: 'bench' }] }, stream_mode: ['updates', 'messages'] }),
    dispatcher,
  });
  let first: number | undefined;
  for await (const chunk of response.body) {
    if (first === undefined && (chunk as Buffer).includes('event:')) first = performance.now() - started;
  }
  if (response.statusCode !== 200 || first === undefined) throw new Error(`run stream answered ${response.statusCode} without events`);
  return { first, total: performance.now() - started };
}

/** p50 of a plain GET /ok: the yardstick the stream figures are divided by. */
async function okBaseline(): Promise<number> {
  const once = async () => {
    const started = performance.now();
    const response = await request(`${origin}/ok`, { dispatcher });
    await response.body.text();
    return performance.now() - started;
  };
  for (let i = 0; i < 20; i += 1) await once();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) samples.push(await once());
  return percentile(samples, 50);
}

async function streams(label: string, path: () => string) {
  for (let i = 0; i < 20; i += 1) await timeStream(path());
  const samples: { first: number; total: number }[] = [];
  for (let i = 0; i < RUNS; i += 1) samples.push(await timeStream(path()));
  const firsts = samples.map((s) => s.first);
  const totals = samples.map((s) => s.total);
  return {
    label,
    runs: RUNS,
    first_event_ms: { p50: percentile(firsts, 50), p99: percentile(firsts, 99) },
    close_ms: { p50: percentile(totals, 50), p99: percentile(totals, 99) },
  };
}

async function createRate(concurrency: number) {
  let done = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const response = await post('/assistants', { graph_id: 'echo', metadata: { bench: true } });
      await response.text();
      if (response.statusCode !== 200) throw new Error(`POST /assistants answered ${response.statusCode}`);
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { concurrency, requests: done, per_second: Math.round(done / ((performance.now() - started) / 1000)) };
}

try {
  const thread = JSON.parse(await (await post('/threads', {})).text()) as { thread_id: string };
  const okMs = await okBaseline();
  const results = {
    storage: ctx.pool ? 'postgres' : 'memory',
    ok_p50_ms: okMs,
    streams: [await streams('stateless /runs/stream', () => '/runs/stream'), await streams('thread run', () => `/threads/${thread.thread_id}/runs/stream`)],
    create_assistant: [await createRate(1), await createRate(CONCURRENCY)],
  };
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  console.log(`agent server benchmark (${results.storage} storage, loopback, echo graph)`);
  for (const s of results.streams) {
    console.log(`  ${s.label.padEnd(24)} first event p50 ${ms(s.first_event_ms.p50)}  p99 ${ms(s.first_event_ms.p99)} | closed p50 ${ms(s.close_ms.p50)}  p99 ${ms(s.close_ms.p99)}  (${s.runs} runs)`);
    console.log(`  ${''.padEnd(24)} closed p50 = ${(s.close_ms.p50 / okMs).toFixed(1)}x a GET /ok (p50 ${ms(okMs)}) in this run`);
  }
  for (const c of results.create_assistant) console.log(`  POST /assistants x${c.concurrency}`.padEnd(27) + `${c.per_second} requests/s (${c.requests} in ${SECONDS} s)`);
  console.log('  for comparison, the field notes: ~190 POST /assistants per second sequentially, run streams >= ~550 ms');
  console.log(JSON.stringify(results));
} finally {
  await dispatcher.close();
  await app.close();
  await close();
}
