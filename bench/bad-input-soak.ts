// Soak of the reference implementation with generated bad input: at least 10,000 requests per
// endpoint (every path and method of the three listeners' OpenAPI documents) with hostile bodies,
// ids and queries. Prints per-endpoint status counts, the number of 5xx answers (expected: 0) and
// the process's memory before and after. The reference runs in this process, on the in-memory
// store unless a PostgreSQL URL is given.
//
//   npm run bench:soak -- [--per-endpoint 10000] [--concurrency 8] [--database-url <postgres url>]
//
// Exit status 1 when any request got a 5xx or failed at the connection level.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { startReference, type ReferenceServer } from '../reference-impl/index.ts';

const { values: args } = parseArgs({
  options: {
    'per-endpoint': { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '8' },
    'database-url': { type: 'string' },
  },
});
const PER_ENDPOINT = Number(args['per-endpoint']);
const CONCURRENCY = Number(args.concurrency);

type Listener = keyof ReferenceServer['urls'];
interface Endpoint {
  listener: Listener;
  method: string;
  /** OpenAPI path template, e.g. `/v2/deployments/{deployment_id}`. */
  path: string;
}

/** Hostile bodies of every class the review found, as raw bytes. */
const HOSTILE: Buffer[] = [
  `{"a":[${Array(20_000).fill('1').join(',')}]}`,
  `{"metadata":${'['.repeat(5_000)}${']'.repeat(5_000)}}`,
  `{"name":"${'x'.repeat(200_000)}"}`,
  '{"name":"a\\u0000b"}',
  '{"name":"\\ud800"}',
  '{"version":2147483648}',
  '{"version":1e308}',
  '{"limit":1e400}',
  '{"name": ',
  '{"__proto__":{"x":1}}',
  '',
].map((text) => Buffer.from(text));
HOSTILE.push(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]));

const BAD_IDS = ['%ff', '%00', 'a'.repeat(101), 'a'.repeat(3_000), '..%2F..', randomUUID().toUpperCase(), 'not-a-uuid'];

const body: fc.Arbitrary<Buffer> = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.jsonValue({ maxDepth: 4 }).map((value) => Buffer.from(JSON.stringify(value) ?? 'null')),
  fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }).map((value) => Buffer.from(JSON.stringify(value))),
  fc.string({ unit: 'binary', maxLength: 60 }).map((text) => Buffer.from(text)),
);

const query = fc
  .dictionary(fc.constantFrom('limit', 'offset', 'name', 'name_contains', 'status', 'delete_tracing_project', 'deployment_ids'), fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('-1', '1e400', '99999999999999999999', '%00')), { maxKeys: 3 })
  .map((params) => {
    const text = Object.entries(params).map(([k, v]) => `${k}=${v.startsWith('%') ? v : encodeURIComponent(v)}`).join('&');
    return text ? `?${text}` : '';
  });

const id = fc.oneof(fc.constantFrom(...BAD_IDS), fc.string({ maxLength: 40 }).map(encodeURIComponent), fc.uuid());

const contentType = fc.constantFrom('application/json', 'application/json', 'application/json', 'text/plain', 'application/xml', 'application/json; charset=latin1');

/** Every path and method the three listeners document. */
async function endpointsOf(server: ReferenceServer): Promise<Endpoint[]> {
  const endpoints: Endpoint[] = [];
  for (const listener of Object.keys(server.urls) as Listener[]) {
    const response = await request(`${server.urls[listener]}/openapi.json`);
    const document = (await response.body.json()) as { paths: Record<string, Record<string, unknown>> };
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) endpoints.push({ listener, method: method.toUpperCase(), path });
    }
  }
  return endpoints;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function memory(): string {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return `rss ${mb(rss)}, heap used ${mb(heapUsed)}`;
}

const server = await startReference({ ...(args['database-url'] && { databaseUrl: args['database-url'] }), statsDelayMs: 0 });
const dispatcher = new Agent({ connections: CONCURRENCY * 2 });
const endpoints = await endpointsOf(server);
const memoryBefore = memory();
console.log(`Soaking ${endpoints.length} endpoints with ${PER_ENDPOINT} bad requests each, ${CONCURRENCY} at a time, on ${args['database-url'] ? 'PostgreSQL' : 'the in-memory store'}.`);
console.log(`memory before: ${memoryBefore}`);

let total5xx = 0;
let failures = 0;
const started = performance.now();
for (const endpoint of endpoints) {
  const requests = fc.sample(fc.record({ id, query, body, contentType }), { numRuns: PER_ENDPOINT });
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const sent = requests[next++]!;
      const path = endpoint.path.replace(/\{[^}]+\}/g, sent.id) + sent.query;
      const withBody = endpoint.method !== 'GET' && endpoint.method !== 'DELETE';
      try {
        const response = await request(`${server.urls[endpoint.listener]}${path}`, {
          method: endpoint.method as 'GET',
          dispatcher,
          headers: { 'x-api-key': server.apiKey, ...(withBody && { 'content-type': sent.contentType }) },
          ...(withBody && { body: sent.body }),
        });
        await response.body.dump();
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        if (response.statusCode >= 500) {
          total5xx += 1;
          if (total5xx <= 5) console.log(`  5xx: ${endpoint.method} ${path.slice(0, 120)} ${sent.body.subarray(0, 120).toString()}`);
        }
      } catch (error) {
        failures += 1;
        if (failures <= 5) console.log(`  failed: ${endpoint.method} ${path.slice(0, 120)}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const counts = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ');
  console.log(`${endpoint.method.padEnd(6)} ${endpoint.listener.padEnd(12)} ${endpoint.path.padEnd(56)} ${counts}`);
}
const seconds = (performance.now() - started) / 1000;
const memoryAfter = memory();
console.log(`memory after:  ${memoryAfter}`);
console.log(`${endpoints.length * PER_ENDPOINT} requests in ${seconds.toFixed(0)} s; 5xx: ${total5xx}; connection failures: ${failures}`);
console.log(JSON.stringify({ endpoints: endpoints.length, perEndpoint: PER_ENDPOINT, count5xx: total5xx, failures, seconds: Math.round(seconds), memoryBefore, memoryAfter }));
await dispatcher.close();
await server.close();
process.exitCode = total5xx > 0 || failures > 0 ? 1 : 0;
