// How long a run is expected to take, before it starts: the requests its selected tests send
// (counted on a certification of the reference, request-counts.json, refreshed by
// `npx tsx scripts/request-counts.ts`) times the target's own latency (latency.ts), shared among
// the requests in flight (`concurrency`), plus the harness's own work (what a run of one test
// costs, and the rest of the reference run's wall time, whose answers take milliseconds, in
// proportion to the tests selected). `apc certify --plan`
// adds the revision waits (cost.ts); a run whose expected time passes --max-time says so.
import { addRequests, loadRequestTable, REQUEST_TABLE, type Latency, type RequestCounts, type RequestTable } from '../conformance/request-count.ts';
import { INTERFACES, type InterfaceName } from '../profile/profile.ts';

export { loadRequestTable, REQUEST_TABLE, type RequestTable };

export interface ExpectedTime {
  /** The selected tests' requests, per interface. */
  requests: RequestCounts;
  /** Their latency, shared among the requests in flight. */
  requestsMs: number;
  /** The harness's own work. */
  harnessMs: number;
  totalMs: number;
}

/** The expected wall time of a run of `ids`, revision waits aside. */
export function expectedTime(table: RequestTable, ids: readonly string[], latency: Latency, concurrency: number): ExpectedTime {
  const wanted = new Set(ids);
  const tests = Object.values(table.tests);
  const selected = tests.filter((t) => t.requirements.some((id) => wanted.has(id)));
  const requests: RequestCounts = {};
  for (const test of selected) addRequests(requests, test.requests);
  let latencyMs = 0;
  for (const [name, count] of Object.entries(requests) as [InterfaceName, { posts: number; others: number }][]) {
    const measured = latency[name];
    if (measured) latencyMs += count.posts * measured.postMs + count.others * measured.readMs;
  }
  const requestsMs = latencyMs / Math.max(1, concurrency);
  const harnessMs = table.startMs + (tests.length === 0 ? 0 : ((table.wallMs - table.startMs) * selected.length) / tests.length);
  return { requests, requestsMs, harnessMs, totalMs: requestsMs + harnessMs };
}

export function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.round(ms / 60_000);
  return minutes < 120 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function ms(value: number): string {
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
}

/**
 * The lines a run (and `--plan`) prints: the latency measured, the requests per interface, the
 * expected wall time, and whether it passes `maxTime`. `waitsMs`: the revision waits, when known (--plan).
 */
export function expectedTimeLines(
  expected: ExpectedTime,
  latency: Latency,
  options: { concurrency: number; runs: number; tableRuns: number; waitsMs?: number; maxTime?: { ms: number; label: string } },
): string[] {
  const lines: string[] = [];
  for (const name of INTERFACES) {
    const count = expected.requests[name];
    const measured = latency[name];
    if (!count || !measured) continue;
    lines.push(
      `  ${name.padEnd(18)} about ${count.posts + count.others} request(s), ${count.posts} of them POST; latency measured: read ${ms(measured.readMs)}, POST ${ms(measured.postMs)}`,
    );
  }
  const runsNote = options.runs === options.tableRuns ? '' : ` (counted at --runs ${options.tableRuns}; this run asks ${options.runs})`;
  const total = expected.totalMs + (options.waitsMs ?? 0);
  const parts = [
    `the requests ${duration(expected.requestsMs)} at ${options.concurrency} in flight`,
    `the harness's own work ${duration(expected.harnessMs)}`,
    ...(options.waitsMs !== undefined ? [`the revision waits ${duration(options.waitsMs)}`] : []),
  ];
  lines.push(`  expected wall time: about ${duration(total)} (${parts.join(', ')})${runsNote}.`);
  if (options.maxTime && total > options.maxTime.ms) {
    lines.push(
      `  ${options.maxTime.label} is shorter than that: the run will likely stop before its end (its report then says interrupted, and \`apc certify --resume\` goes on). More --concurrency shortens the requests' part.`,
    );
  }
  return lines;
}
