// The one HTTP client of the harness (undici). Every exchange is recorded for the report,
// requests pass the profile's concurrency limit, and the vocabulary map translates between
// the spec's neutral words and the target's spelling. A throttled (429) or briefly unavailable
// (503) answer is waited out and the request sent again (throttling.ts); only the final answer is
// recorded and judged.
import type { Dispatcher } from 'undici';
import type { Credentials, InterfaceName, TargetProfile } from '../profile/profile.ts';
import type { Redactor } from '../redact.ts';
import { translator, type Translator } from '../profile/vocabulary.ts';
import type { Exchange, RecordedRequest } from './exchange.ts';
import { requestBreaker, streamBreaker } from './circuit-breaker.ts';
import { Limiter } from './limiter.ts';
import { Agent, decompress, request as undiciRequest } from './undici-parts.ts';
import { bareUnavailable, countBare, emptyCounts, isBare503, refusalTally, safeToResend, TargetKeptRefusing, transientKind, waitMs } from './throttling.ts';
import type { RefusalTally, TransientCounts, TransientKind, TransientTally } from './throttling.ts';

export type Auth = 'default' | 'none' | Credentials | { headers: Record<string, string> };

export interface RequestOptions {
  method: string;
  /** Path under the interface's base URL (translated by the vocabulary). */
  path: string;
  /** An absolute URL the target handed out (a signed upload location); wins over `path`. */
  url?: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** A JSON body (serialized and translated). */
  body?: unknown;
  /**
   * A body sent byte for byte (malformed JSON, a tarball); wins over `body`. Content-Type is
   * application/json unless `headers` says otherwise; binary bodies are recorded by size only.
   */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  auth?: Auth;
  timeoutMs?: number;
  /**
   * For a create or PATCH: whether it took effect after all, asked before it is sent again after
   * a 503 (for example, a lookup by its run-unique name), so a duplicate is never judged. Without
   * it such a request is not sent again.
   */
  tookEffect?: () => Promise<boolean>;
}

/**
 * Asked before each request and told after it (harness/budget/guard.ts: the run's budget). `before`
 * may throw to keep the request from being sent; what it returns is handed to `after`.
 */
export interface RequestGuard<T = unknown> {
  before(options: RequestOptions): Promise<T>;
  after(token: T, exchange: Exchange | undefined): Promise<void>;
}

export interface ClientOptions {
  /** Asked before every request, told after (the run's budget). */
  guard?: RequestGuard;
  /** Throw TargetKeptRefusing when a request stays throttled or unavailable (a conformance test); otherwise return its last answer. */
  throwWhenRefused?: boolean;
  /** Stop waiting out refusals past this time (epoch ms): the test's own deadline. */
  giveUpAt?: number;
  /** Learns the `secrets[].value` of every body sent: the run's (or command's) redactor. */
  redactor?: Redactor;
}

/** Keeps every exchange of a test, in order, and counts the refusals that were waited out. */
export class Recorder {
  readonly exchanges: Exchange[] = [];
  readonly transient: TransientTally = {};
  counts(name: InterfaceName): TransientCounts {
    return (this.transient[name] ??= emptyCounts());
  }
  add(exchange: Exchange): void {
    this.exchanges.push(exchange);
  }
  mark(): number {
    return this.exchanges.length;
  }
  since(mark: number): Exchange[] {
    return this.exchanges.slice(mark);
  }
}

export interface StreamHandle {
  /** The exchange so far: request, status and headers; `text` is filled as the stream is read. */
  exchange: Exchange;
  body: AsyncIterable<Uint8Array>;
  /** Stops reading and closes the connection. */
  abort(reason: string): void;
  /** Closes a stream that passed its deadline; enough of these on one URL open the stream breaker. Default: abort. */
  passedDeadline?(reason: string): void;
  /** The server closed the stream in time. */
  ended?(): void;
}

/** A hostile target cannot exhaust memory: bodies beyond this are cut off and reported. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

// The harness asks for compressed answers, as HTTP clients usually do, and reads them decompressed:
// a target may compress when asked (apc selftest's compressed-answers variation). The cap holds
// for the decompressed bytes too.
const dispatcher = new Agent({ keepAliveTimeout: 4_000, connections: 32 }).compose(quietly(() => decompress({ maxSize: MAX_BODY_BYTES, skipErrorResponses: false })));

/**
 * Makes the interceptor without the ExperimentalWarning undici prints once for it: undici is
 * pinned, so the warning tells a user of `apc` nothing, and it was the first line of every run.
 */
function quietly<T>(make: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = (() => undefined) as typeof process.emitWarning;
  try {
    return make();
  } finally {
    process.emitWarning = emit;
  }
}

async function readCapped(body: AsyncIterable<Uint8Array> & { destroy(): void }): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) {
      body.destroy();
      throw new Error(`response body larger than ${MAX_BODY_BYTES} bytes; reading stopped`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function errorText(error: unknown, timeoutMs: number): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return `no complete response within ${timeoutMs} ms`;
    const code = (error as { code?: string }).code;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? code;
    return detail ? `${detail}: ${cause?.message ?? error.message}` : error.message;
  }
  return String(error);
}

function flatHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export class InterfaceClient {
  private readonly words: Translator;

  constructor(
    readonly name: InterfaceName,
    readonly baseUrl: string,
    private readonly profile: TargetProfile,
    private readonly recorder: Recorder,
    private readonly limiter: Limiter,
    private readonly options: ClientOptions = {},
  ) {
    this.words = translator(profile.vocabulary);
  }

  url(path: string, query?: RequestOptions['query']): string {
    const url = new URL(this.baseUrl.replace(/\/+$/, '') + this.words.path(path));
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    return url.toString();
  }

  private authHeaders(auth: Auth): Record<string, string> {
    if (auth === 'none') return {};
    if (typeof auth === 'object' && 'headers' in auth) return auth.headers;
    const creds: Partial<Credentials> = auth === 'default' ? { apiKey: this.profile.apiKey, tenantId: this.profile.tenantId } : auth;
    const headers: Record<string, string> = {};
    if (creds.apiKey) headers['X-Api-Key'] = creds.apiKey;
    if (creds.tenantId && this.name !== 'agent-server') headers['X-Tenant-Id'] = creds.tenantId;
    return headers;
  }

  /** What is recorded, and what goes on the wire (the same unless the body is binary). */
  private prepare(options: RequestOptions): { recorded: RecordedRequest; payload: string | Uint8Array | undefined } {
    const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Encoding': 'gzip, deflate, br', ...this.authHeaders(options.auth ?? 'default') };
    let payload: string | Uint8Array | undefined;
    let shown: string | undefined;
    if (options.rawBody !== undefined) {
      payload = options.rawBody;
      shown = typeof payload === 'string' ? payload : `<${payload.byteLength} bytes of binary data>`;
      headers['Content-Type'] = 'application/json';
    } else if (options.body !== undefined) {
      this.options.redactor?.addFromBody(options.body);
      payload = shown = JSON.stringify(this.words.outgoingBody(options.body));
      headers['Content-Type'] = 'application/json';
    }
    Object.assign(headers, options.headers);
    const url = options.url ?? this.url(options.path, options.query);
    return { recorded: { method: options.method, url, headers, ...(shown !== undefined ? { body: shown } : {}) }, payload };
  }

  /**
   * Sends the request; a 429 or a 503 is waited out (as Retry-After says, capped; a backoff
   * without it) and the request sent again, up to timeouts.throttleMs (a 503 without Retry-After:
   * a few times, within timeouts.requestMs). A 503 on a request that is not safe to send again is
   * sent again only when `tookEffect` says it did not.
   */
  async request(options: RequestOptions): Promise<Exchange> {
    const guard = this.options.guard;
    if (!guard) return this.requestOnce(options);
    const token = await guard.before(options);
    let exchange: Exchange | undefined;
    try {
      exchange = await this.requestOnce(options);
      return exchange;
    } finally {
      await guard.after(token, exchange);
    }
  }

  /** `request` without the guard: sent until an answer that is not a refusal to wait out. */
  private async requestOnce(options: RequestOptions): Promise<Exchange> {
    const tally = refusalTally();
    for (let attempt = 0; ; attempt++) {
      const exchange = await this.send(options);
      const kind = transientKind(exchange);
      if (!kind) {
        this.recorder.add(exchange);
        return exchange;
      }
      if (!(await this.waitOut(options, exchange, kind, attempt, tally))) return exchange;
    }
  }

  /**
   * After a refusal: counts it, waits as asked and answers true to send the request again; or
   * records the last answer and gives up (in a conformance test, by throwing TargetKeptRefusing).
   */
  private async waitOut(options: RequestOptions, exchange: Exchange, kind: TransientKind, attempt: number, tally: RefusalTally): Promise<boolean> {
    const counts = this.recorder.counts(this.name);
    counts[kind] += 1;
    if (kind === 'throttled') this.limiter.throttled();
    countBare(tally, exchange);
    // A bare 503's backoff counts the bare 503s alone: a blip after 429s waits its first step.
    const wait = waitMs(exchange, isBare503(exchange) ? tally.bare - 1 : attempt);
    const problem = await this.whyNotAgain(options, exchange, kind, wait, tally, attempt + 1);
    if (problem) {
      counts.gaveUp += 1;
      this.recorder.add(exchange);
      if (this.options.throwWhenRefused) throw new TargetKeptRefusing(problem);
      return false;
    }
    counts.waitedMs += wait;
    await new Promise((resolve) => setTimeout(resolve, wait));
    return true;
  }

  /** Why a refused request is not sent again, or undefined when it may be. */
  private async whyNotAgain(options: RequestOptions, exchange: Exchange, kind: TransientKind, wait: number, tally: RefusalTally, answers: number): Promise<string | undefined> {
    const { firstSent } = tally;
    const what = `${exchange.request.method} ${new URL(exchange.request.url).pathname}`;
    const refusal = kind === 'throttled' ? 'the target kept throttling (429)' : 'the target kept failing transiently (503)';
    const budget = this.profile.timeouts.throttleMs;
    if (Date.now() + wait - firstSent > budget) return `${refusal}: ${answers} such answer(s) to ${what} over ${Math.round((Date.now() - firstSent) / 1000)} s, and the next wait (${wait} ms) passes timeouts.throttleMs (${budget} ms)`;
    if (this.options.giveUpAt !== undefined && Date.now() + wait > this.options.giveUpAt) return `${refusal}: ${answers} such answer(s) to ${what}, and the next wait (${wait} ms) passes the test's deadline`;
    const unavailable = isBare503(exchange) ? bareUnavailable(tally, wait, this.profile.timeouts.requestMs, what) : undefined;
    if (unavailable) return unavailable;
    if (kind === 'throttled' || safeToResend(exchange.request.method, exchange.request.url)) return undefined;
    if (!options.tookEffect) return `the target failed transiently (503) on ${what}, which cannot be sent again without knowing whether it took effect`;
    if (await options.tookEffect()) return `the target answered 503 to ${what}, yet it took effect: its answer is lost, so there is nothing to judge`;
    return undefined;
  }

  /** One attempt: the exchange, not yet recorded. */
  private async send(options: RequestOptions): Promise<Exchange> {
    const { recorded: prepared, payload } = this.prepare(options);
    const timeoutMs = options.timeoutMs ?? this.profile.timeouts.requestMs;
    return this.limiter.run(async () => {
      const started = performance.now();
      const exchange: Exchange = { interface: this.name, request: prepared, startedAt: new Date().toISOString(), durationMs: 0 };
      const refusal = requestBreaker.refusal(this.baseUrl);
      if (refusal) {
        exchange.error = refusal;
        return exchange;
      }
      try {
        const response = await undiciRequest(prepared.url, {
          method: prepared.method as Dispatcher.HttpMethod,
          headers: prepared.headers,
          body: payload,
          signal: AbortSignal.timeout(timeoutMs),
          dispatcher,
        });
        const text = await readCapped(response.body);
        const headers = flatHeaders(response.headers);
        let json: unknown;
        if (text.length > 0 && /json/i.test(headers['content-type'] ?? '')) {
          try {
            json = this.words.incomingBody(JSON.parse(text));
          } catch {
            json = undefined;
          }
        }
        exchange.response = { status: response.statusCode, headers, text, ...(json !== undefined ? { json } : {}) };
      } catch (error) {
        exchange.error = errorText(error, timeoutMs);
      }
      if (exchange.response) requestBreaker.succeeded(this.baseUrl);
      else requestBreaker.failed(this.baseUrl, `${prepared.method} ${prepared.url}: ${exchange.error}`);
      exchange.durationMs = Math.round(performance.now() - started);
      return exchange;
    });
  }

  get(path: string, options: Omit<RequestOptions, 'method' | 'path'> = {}): Promise<Exchange> {
    return this.request({ ...options, method: 'GET', path });
  }
  post(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'path' | 'body'> = {}): Promise<Exchange> {
    return this.request({ ...options, method: 'POST', path, body });
  }
  patch(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'path' | 'body'> = {}): Promise<Exchange> {
    return this.request({ ...options, method: 'PATCH', path, body });
  }
  delete(path: string, options: Omit<RequestOptions, 'method' | 'path'> = {}): Promise<Exchange> {
    return this.request({ ...options, method: 'DELETE', path });
  }

  /**
   * Opens a streaming response (server-sent events). The caller reads `body` under its own
   * deadline (see harness/sse/reader.ts); the exchange is recorded right away and its `text`
   * grows as the reader appends what arrived.
   */
  async openStream(options: RequestOptions): Promise<StreamHandle | Exchange> {
    const tally = refusalTally();
    for (let attempt = 0; ; attempt++) {
      const opened = await this.openStreamOnce(options);
      const exchange = 'body' in opened ? opened.exchange : opened;
      // A 429 means the run was not started: wait as asked and open it again.
      if (exchange.response?.status !== 429) {
        this.recorder.add(exchange);
        return opened;
      }
      if ('body' in opened) {
        opened.abort('throttled (429): opened again');
        delete exchange.error;
      }
      if (!(await this.waitOut(options, exchange, 'throttled', attempt, tally))) return exchange;
    }
  }

  /** One attempt at opening a stream: the handle (or the exchange without one), not yet recorded. */
  private async openStreamOnce(options: RequestOptions): Promise<StreamHandle | Exchange> {
    const { recorded: prepared, payload } = this.prepare(options);
    prepared.headers['Accept'] = 'text/event-stream';
    const timeoutMs = options.timeoutMs ?? this.profile.timeouts.streamMs;
    const exchange: Exchange = { interface: this.name, request: prepared, startedAt: new Date().toISOString(), durationMs: 0 };
    const started = performance.now();
    const refusal = streamBreaker.refusal(this.baseUrl) ?? requestBreaker.refusal(this.baseUrl);
    if (refusal) {
      exchange.error = refusal;
      return exchange;
    }
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    try {
      // The deadline starts when the request is sent, not while it waits for a slot of the
      // limiter: on a slow target many streams queue behind each other, and a queued one is no
      // answer missing (counted so, they opened the circuit breaker on a conforming target).
      const response = await this.limiter.run(() => {
        timer = setTimeout(() => controller.abort(new Error(`no response headers within ${timeoutMs} ms`)), timeoutMs);
        return undiciRequest(prepared.url, {
          method: prepared.method as Dispatcher.HttpMethod,
          headers: prepared.headers,
          body: payload,
          signal: controller.signal,
          dispatcher,
        });
      });
      clearTimeout(timer);
      exchange.response = { status: response.statusCode, headers: flatHeaders(response.headers), text: '' };
      exchange.durationMs = Math.round(performance.now() - started);
      return {
        exchange,
        body: response.body,
        abort: (reason) => {
          exchange.error = reason;
          // Closed on purpose: the "Request aborted" error undici then emits is expected, and must
          // not surface as an unhandled error event when nothing is reading (a 429 opened again).
          response.body.on('error', () => undefined).destroy();
        },
        passedDeadline: (reason) => {
          exchange.error = reason;
          response.body.destroy();
          streamBreaker.failed(this.baseUrl, `${prepared.method} ${prepared.url}: ${reason}`);
        },
        ended: () => streamBreaker.succeeded(this.baseUrl),
      };
    } catch (error) {
      clearTimeout(timer);
      exchange.error = errorText(error, timeoutMs);
      exchange.durationMs = Math.round(performance.now() - started);
      requestBreaker.failed(this.baseUrl, `${prepared.method} ${prepared.url}: ${exchange.error}`);
      return exchange;
    }
  }
}
