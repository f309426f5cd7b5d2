// The three parts of undici the HTTP client uses (its Agent, the request call and the decompress
// interceptor), loaded by themselves. undici's index loads all of it (fetch, cookies, caches,
// mocks, proxies, WebSocket): 65 ms of CPU here against 22 for these parts, paid in the certifying
// process and again in every suite worker before its first request. undici is pinned
// (package.json), so these files are where this version keeps them; the types are the index's.
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Dispatcher, interceptors } from 'undici';

const requireHere = createRequire(import.meta.url);

export const Agent = requireHere('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
export const decompress = requireHere('undici/lib/interceptor/decompress.js') as typeof interceptors.decompress;
const requestOn = requireHere('undici/lib/api/api-request.js') as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
const { parseURL } = requireHere('undici/lib/core/util.js') as { parseURL(url: string): URL };

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };

/** undici's `request(url, options)` as its index makes it: the URL checked and split into origin and path for `options.dispatcher`. */
export function request(url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  const parsed = parseURL(url);
  return requestOn.call(dispatcher, {
    ...rest,
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
    method: rest.method || (rest.body ? 'PUT' : 'GET'),
  });
}
