// Load with autocannon, and percentiles of the benchmarks' own samples.
import autocannon from 'autocannon';

export interface LoadFigures {
  /** 2xx responses per second. */
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
}

export interface LoadRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** `[<id>]` in the body becomes a fresh id per request (autocannon's idReplacement): unique names. */
  body?: string;
}

export async function load(request: LoadRequest, options: { connections: number; seconds?: number; amount?: number }): Promise<LoadFigures> {
  const result = await autocannon({
    url: request.url,
    method: request.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...request.headers },
    ...(request.body !== undefined ? { body: request.body, idReplacement: true } : {}),
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.seconds ?? 3 }),
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${request.method ?? 'GET'} ${request.url}: ${failed} of ${result.requests.total} requests failed or answered non-2xx`);
  return { perSecond: Math.round(result['2xx'] / result.duration), p50Ms: result.latency.p50, p99Ms: result.latency.p99, requests: result.requests.total };
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export const round = (n: number, digits = 2): number => Number(n.toFixed(digits));
