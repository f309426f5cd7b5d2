// How many requests a test sent, per interface, POSTs apart: on a target whose POSTs are slow (a
// create that provisions a database) they are the requests that take the time. The plan's wall
// time (harness/run/expected-time.ts) multiplies counts measured on the reference by the
// target's own latency.
import type { Exchange } from '../http/exchange.ts';
import type { InterfaceName } from '../profile/profile.ts';

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
