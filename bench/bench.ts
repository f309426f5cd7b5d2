// `npm run bench`: the performance figures of the harness and the reference implementation, as
// ratios measured in one run (shared machines are noisy; compare ratios, not milliseconds).
// Prints a short table and writes bench/results/<date>.json. See README "Performance".
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../harness/root.ts';
import type { ThrowawayServer } from '../test/support/postgres.ts';
import { BENCH_USAGE, benchArgs } from './options.ts';
import type { AgentServer } from './streams.ts';
import { WAIT_TARGETS, type WaitTarget } from './wait-targets.ts';

const read = benchArgs(process.argv.slice(2));
if ('problem' in read) {
  process.stderr.write(`bench: ${read.problem}\nRun \`npm run bench -- --help\` for the options.\n`);
  process.exit(2);
}
const args = read.values;
if (args.help) {
  process.stdout.write(BENCH_USAGE);
  process.exit(0);
}
const peerUrl = args['peer-agent-server']?.replace(/\/$/, '');
// A peer may take half a second per run stream: fewer runs by default when one is given.
const RUNS = Number(args.runs ?? (peerUrl ? 100 : 1000));
const SECONDS = Number(args.seconds);
const PEER_ROUNDS = Math.max(1, Number(args['peer-rounds']));
const WAITS_ROUNDS = Number(args['waits-rounds']);
if (!Number.isInteger(WAITS_ROUNDS) || WAITS_ROUNDS < 1) {
  process.stderr.write(`bench: --waits-rounds wants a whole number of at least 1, found ${JSON.stringify(args['waits-rounds'])}\n`);
  process.exit(2);
}
const WAITS_TARGETS = args['waits-targets']!.split(',') as WaitTarget[];
if (WAITS_TARGETS.some((t) => !WAIT_TARGETS.includes(t))) {
  process.stderr.write(`bench: --waits-targets takes some of ${WAIT_TARGETS.join(', ')}, found ${JSON.stringify(args['waits-targets'])}\n`);
  process.exit(2);
}
const sections = new Set((args.only ?? 'certification,waits,overhead,throughput,streams,memory,scale').split(','));
const log = (text: string) => process.stderr.write(`bench: ${text}\n`);
// The options hold: now the measuring code (sections.ts).
const {
  ASSISTANT,
  certification,
  closeStreams,
  feedback,
  feedbackPlan,
  freshDatabase,
  harnessOverhead,
  load,
  memory,
  peerRatios,
  printSummary,
  revisionWaits,
  round,
  scale,
  slowPosts,
  startReferenceProcess,
  startThrowawayServer,
  streams,
  throughput,
} = await import('./sections.ts');

async function postgresUrl(): Promise<{ url: string; stop(): Promise<void> } | { skipped: string }> {
  if (args['no-postgres']) return { skipped: '--no-postgres' };
  const admin = args['database-url'] ?? process.env.APC_TEST_DATABASE_URL;
  let server: ThrowawayServer | undefined;
  try {
    server = admin ? undefined : await startThrowawayServer();
    const db = await freshDatabase(admin ?? server!.adminUrl);
    return { url: db.url, stop: async () => (await db.drop(), await server?.stop()) };
  } catch (error) {
    await server?.stop();
    return { skipped: (error as Error).message };
  }
}

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: (await import('node:os')).availableParallelism(),
  // 1, 5 and 15-minute load averages at the start: figures from a busy machine are slower.
  load: (await import('node:os')).loadavg().map((n) => round(n)),
  options: { runs: RUNS, seconds: SECONDS, scale: args.scale, memoryRequests: Number(args['memory-requests']), peer: peerUrl ?? null },
};

if (sections.has('certification')) {
  log('timing apc help, a one-requirement certification and the default certification');
  results.certification = await certification(Number(args['certify-runs']));
}
if (sections.has('feedback') || sections.has('unit')) {
  const plan = feedbackPlan(args, sections.has('feedback'));
  if ('problem' in plan) {
    process.stderr.write(`bench: ${plan.problem}\n`);
    process.exit(2);
  }
  log(
    `timing ${plan.commands.join(', ')} in ${plan.rounds} round(s)${plan.commits ? `, alternating ${plan.commits.old.slice(0, 7)} (old) and ${plan.commits.new.slice(0, 7)} (new)` : ''} (minutes)`,
  );
  results.feedback = await feedback({ ...plan, log });
}
if (sections.has('waits')) {
  log(
    `revision waits: control-plane certifications at revision phases of ${args['phase-ms']} ms, ${WAITS_ROUNDS} interleaved rounds (${WAITS_TARGETS.join(', ')})`,
  );
  results.revisionWaits = await revisionWaits(args['phase-ms']!.split(',').map(Number), WAITS_ROUNDS, WAITS_TARGETS);
}
if (sections.has('slow-posts')) {
  log('slow posts: certifications by URL of the reference answering every POST 2 s late, default settings and budget, then more in flight (minutes)');
  results.slowPosts = await slowPosts(Number(args['slow-posts-concurrency']));
}
if (sections.has('overhead')) {
  log('harness overhead during the create property suites');
  results.harnessOverhead = await harnessOverhead(SECONDS);
}
if (sections.has('throughput')) {
  log('throughput on the memory store');
  const ref = await startReferenceProcess();
  try {
    results.throughput = { memory: await throughput(ref, { connections: 10, seconds: SECONDS }) };
  } finally {
    await ref.stop();
  }
  log('throughput on PostgreSQL');
  const pg = await postgresUrl();
  if ('skipped' in pg) (results.throughput as Record<string, unknown>).postgres = { skipped: pg.skipped };
  else {
    const ref = await startReferenceProcess({ databaseUrl: pg.url });
    try {
      (results.throughput as Record<string, unknown>).postgres = await throughput(ref, { connections: 10, seconds: SECONDS });
    } finally {
      await ref.stop();
      await pg.stop();
    }
  }
}
if (sections.has('streams')) {
  const ref = await startReferenceProcess();
  try {
    const servers: AgentServer[] = [{ label: 'reference', url: ref.urls.agentServer, headers: { 'x-api-key': ref.grants[0].key } }];
    if (peerUrl) servers.push({ label: 'peer', url: peerUrl, headers: args['peer-api-key'] ? { 'x-api-key': args['peer-api-key'] } : {} });
    log(`run streams: ${RUNS} of each kind${peerUrl ? `, interleaved with the peer at ${peerUrl}` : ''}`);
    results.streams = await streams(servers, RUNS);
    if (peerUrl) {
      log('POST /assistants on the reference and the peer');
      const rate = async (server: AgentServer) => {
        const ok = await load({ url: `${server.url}/ok`, headers: server.headers }, { connections: 10, seconds: SECONDS });
        const create = await load(
          { url: `${server.url}/assistants`, method: 'POST', headers: server.headers, body: ASSISTANT },
          { connections: 10, seconds: SECONDS },
        );
        return { okPerSecond: ok.perSecond, createAssistantPerSecond: create.perSecond, p50Ms: create.p50Ms, p99Ms: create.p99Ms };
      };
      // One sample of each is at the mercy of whatever else the machine did in those seconds:
      // rounds alternate between the two, and each round's ratio counts.
      const rounds: { reference: Awaited<ReturnType<typeof rate>>; peer: Awaited<ReturnType<typeof rate>> }[] = [];
      for (let i = 0; i < PEER_ROUNDS; i++) {
        log(`round ${i + 1} of ${PEER_ROUNDS}: the reference, then the peer`);
        rounds.push({ reference: await rate(servers[0]!), peer: await rate(servers[1]!) });
      }
      results.peer = peerRatios(rounds);
    }
  } finally {
    await closeStreams();
    await ref.stop();
  }
}
if (sections.has('memory')) {
  log(`memory over ${args['memory-requests']} requests`);
  const ref = await startReferenceProcess();
  try {
    results.memory = await memory(ref, Number(args['memory-requests']));
  } finally {
    await ref.stop();
  }
}
if (sections.has('scale')) {
  const counts = args.scale!.split(',').map(Number);
  log(`scale: ${counts.join(', ')} stored deployments and assistants`);
  const ref = await startReferenceProcess();
  try {
    results.scale = await scale(ref, counts, { seconds: Math.min(SECONDS, 2), certify: true });
  } finally {
    await ref.stop();
  }
}

const file = args.out ?? join(ROOT, 'bench', 'results', `${results.date as string}.json`.replace(/:/g, '-'));
mkdirSync(join(file, '..'), { recursive: true });
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
printSummary(results);
console.log(`\nresults: ${file}`);
