// How many requests a test sent, per interface, POSTs apart: on a target whose POSTs are slow (a
// create that provisions a database) they are the requests that take the time. The plan's wall
// time (harness/run/expected-time.ts) and a test's deadline (slow-deadline.ts) multiply the counts
// measured on the reference (the table below) by the target's own latency (its type is here too).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Exchange } from '../http/exchange.ts';
import type { InterfaceName } from '../profile/profile.ts';
import { ROOT } from '../root.ts';

export interface RequestCount {
  posts: number;
  /** Every other method (GET, PATCH, PUT, DELETE). */
  others: number;
}

export type RequestCounts = Partial<Record<InterfaceName, RequestCount>>;

export function requestsBy(exchanges: readonly Exchange[]): RequestCounts {
  const counts: RequestCounts = {};
  for (const exchange of exchanges)
    addRequests(counts, { [exchange.interface]: exchange.request.method === 'POST' ? { posts: 1, others: 0 } : { posts: 0, others: 1 } });
  return counts;
}

/** Adds `more` into `into`, per interface. */
export function addRequests(into: RequestCounts, more: RequestCounts): RequestCounts {
  for (const [name, count] of Object.entries(more) as [InterfaceName, RequestCount][]) {
    const sum = (into[name] ??= { posts: 0, others: 0 });
    sum.posts += count.posts;
    sum.others += count.others;
  }
  return into;
}

export interface InterfaceLatency {
  /** Median time to the whole answer of a read, ms. */
  readMs: number;
  /** Median time to the whole answer of a POST, ms. */
  postMs: number;
}

/** The target's latency per interface, measured as a run starts (harness/run/latency.ts). */
export type Latency = Partial<Record<InterfaceName, InterfaceLatency>>;

/** request-counts.json: each test of a certification of the reference and the requests it sent. */
export interface RequestTable {
  /** When and on which commit it was measured, with which `--runs`. */
  measured: string;
  runs: number;
  /** The wall time of that certification, ms: the harness's own work, the reference answering at once. */
  wallMs: number;
  /** The wall time of a certification of a single quick test, ms: what any run costs before its tests. */
  startMs: number;
  tests: Record<string, { requirements: string[]; requests: RequestCounts }>;
}

export const REQUEST_TABLE = 'harness/run/request-counts.json';

export function loadRequestTable(): RequestTable {
  return JSON.parse(readFileSync(join(ROOT, REQUEST_TABLE), 'utf8')) as RequestTable;
}
