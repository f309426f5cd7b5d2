// Starts the reference agent server on a loopback port for a test file, with either backend,
// and talks to it over real HTTP.
import { buildAgentServerApp } from '../../../reference-impl/agent-server/app.ts';
import type { ReferenceOptions } from '../../../reference-impl/options.ts';
import { databaseFor, startListener, type Backend } from '../../support/reference-listener.ts';

export { BACKENDS } from '../../support/reference-listener.ts';

export interface TestServer {
  url: string;
  apiKey: string;
  /** The database URL on the PostgreSQL backend, so a test can start a second server on it. */
  databaseUrl: string | undefined;
  call(method: string, path: string, body?: unknown, init?: { headers?: Record<string, string>; rawBody?: string }): Promise<Reply>;
  stream(path: string, body: unknown): Promise<StreamReply>;
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: any;
}

export interface Frame {
  event: string;
  /** Parsed `data:`; undefined when the frame had no data line. */
  data: any;
  id: string | undefined;
}

export interface StreamReply extends Reply {
  frames: Frame[];
  firstByteMs: number;
  totalMs: number;
}

/** One frame exactly as the reference writes it: `event:`, one `data:`, optional `id:`, blank line. */
const FRAME = /^event: ([^\n]+)\n(?:data: ([^\n]*)\n)?(?:id: (\d+)\n)?$/;

/** Splits a complete SSE body into frames, failing on anything not in the reference's exact format. */
export function parseFrames(text: string): Frame[] {
  if (text === '') return [];
  if (!text.endsWith('\n\n')) throw new Error(`stream does not end with a blank line: ${JSON.stringify(text.slice(-40))}`);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((block) => {
      const match = FRAME.exec(`${block}\n`);
      if (!match) throw new Error(`not an SSE frame in the expected format: ${JSON.stringify(block)}`);
      return { event: match[1]!, data: match[2] === undefined ? undefined : JSON.parse(match[2]), id: match[3] };
    });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A server on `backend`. On PostgreSQL it gets a fresh database, dropped on close, unless
 * `options.databaseUrl` names one (a restart test reuses a database across servers).
 */
export async function startServer(backend: Backend, options: ReferenceOptions = {}): Promise<TestServer> {
  const database = options.databaseUrl ? undefined : await databaseFor(backend);
  const databaseUrl = options.databaseUrl ?? database?.url;
  const server = await startListener({ ...options, ...(databaseUrl && { databaseUrl }) }, buildAgentServerApp);
  const { url, apiKey } = server;

  const call: TestServer['call'] = async (method, path, body, init = {}) => {
    const hasBody = init.rawBody !== undefined || body !== undefined;
    const response = await fetch(url + path, {
      method,
      headers: { 'x-api-key': apiKey, ...(hasBody && { 'content-type': 'application/json' }), ...init.headers },
      ...(hasBody && { body: init.rawBody ?? JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: parseJson(text) };
  };

  const stream: TestServer['stream'] = async (path, body) => {
    const started = performance.now();
    const response = await fetch(url + path, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const firstByteMs = performance.now() - started;
    const text = await response.text();
    const totalMs = performance.now() - started;
    const isStream = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: isStream ? undefined : parseJson(text),
      frames: isStream && response.status === 200 ? parseFrames(text) : [],
      firstByteMs,
      totalMs,
    };
  };

  return {
    url,
    apiKey,
    databaseUrl,
    call,
    stream,
    async close() {
      await server.close();
      await database?.drop();
    },
  };
}

/** A metadata value unique to one test, so searches see only what that test created. */
export function uniqueTag(): string {
  return `t-${Math.random().toString(36).slice(2, 10)}`;
}
