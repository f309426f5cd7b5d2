// A small HTTP proxy in front of the reference implementation that bends one thing at a time:
// it can rewrite a request, answer in the target's place, rewrite an answer, or write an answer
// in many small chunks. Self-tests use it for targets the reference's fault switches do not
// cover, and for targets that follow the spec in unusual but legitimate ways.
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** Path with query. */
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxyRules {
  /** Rewrites the request, or answers it without asking the target; may take its time (a slow proxy). */
  request?(request: ProxiedRequest): ProxiedRequest | ProxiedAnswer | Promise<ProxiedRequest | ProxiedAnswer>;
  /** Rewrites the target's answer (its whole body). */
  answer?(request: ProxiedRequest, answer: ProxiedAnswer): ProxiedAnswer;
  /** Cuts the answer's body into the chunks written, one per event-loop turn. */
  chunks?(answer: ProxiedAnswer): Buffer[];
  /**
   * Leaves the answer open after its chunks, as a stream that never ends, writing `every.text`
   * each `every.ms` when given; undefined ends it as usual.
   */
  holdOpen?(answer: ProxiedAnswer): { every?: { ms: number; text: string } } | undefined;
}

export interface Proxy {
  url: string;
  close(): Promise<void>;
}

const HOP_HEADERS = new Set(['connection', 'content-length', 'transfer-encoding', 'keep-alive', 'host', 'content-encoding']);

function plainHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_HEADERS.has(k.toLowerCase())) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

function isAnswer(value: ProxiedRequest | ProxiedAnswer): value is ProxiedAnswer {
  return 'status' in value;
}

/** Answers that carry no body, whatever was given (RFC 9110 6.4.1): no length is declared for them. */
const bodyless = (method: string, status: number) => method === 'HEAD' || status < 200 || status === 204 || status === 304;

async function send(res: ServerResponse, method: string, answer: ProxiedAnswer, chunks: Buffer[], hold: ReturnType<NonNullable<ProxyRules['holdOpen']>>): Promise<void> {
  // An answer in one piece goes out as the target sent it, with its length, in one write: chunked,
  // its end came as a write (a system call) of its own, a quarter of the proxy's CPU.
  const [only, ...more] = chunks;
  const framed = Object.keys(answer.headers).some((name) => /^(content-length|transfer-encoding)$/i.test(name));
  if (only && more.length === 0 && !hold && !framed) {
    const empty = bodyless(method, answer.status);
    res.writeHead(answer.status, empty ? answer.headers : { ...answer.headers, 'content-length': String(only.length) });
    return void res.end(empty ? undefined : only);
  }
  res.writeHead(answer.status, answer.headers);
  for (const chunk of chunks) {
    res.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!hold) return void res.end();
  if (hold.every) {
    const { ms, text } = hold.every;
    const timer = setInterval(() => res.write(text), ms);
    res.on('close', () => clearInterval(timer));
  }
}

/** A request reset on a kept-alive socket before any answer: the target closed the socket as idle. */
class StaleSocket extends Error {}

export async function startProxy(target: string, rules: ProxyRules): Promise<Proxy> {
  // The proxy's own connections to the target, kept alive and closed with it. Identity encoding is
  // asked for (the target's answers are rewritten as bytes). node's HTTP client rather than
  // undici: its parser is native, and a proxied request cost the certifying process a fifth less.
  const upstream = new Agent({ keepAlive: true });
  const base = new URL(target);
  // A kept-alive socket the target closed as idle just as a request went out on it resets before
  // any answer: the target never read that request, so it is sent again on a new socket (node's
  // documented remedy). Under load the race turned a valid create into the proxy's 502.
  const ask = (sent: ProxiedRequest): Promise<ProxiedAnswer> =>
    askOnce(sent).catch((error: unknown) => {
      if (error instanceof StaleSocket) return askOnce(sent);
      throw error;
    });
  const askOnce = (sent: ProxiedRequest): Promise<ProxiedAnswer> =>
    new Promise((resolve, reject) => {
      const { 'accept-encoding': _encodings, ...headers } = sent.headers;
      // As undici frames a request: a length for any body, and 0 for a method that carries one.
      if (sent.body.length > 0 || /^(POST|PUT|PATCH)$/i.test(sent.method)) headers['content-length'] = String(sent.body.length);
      const asked = request({ agent: upstream, host: base.hostname, port: base.port, method: sent.method, path: base.pathname.replace(/\/+$/, '') + sent.path, headers }, (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('error', reject);
        response.on('end', () => resolve({ status: response.statusCode ?? 502, headers: plainHeaders(response.headers), body: Buffer.concat(parts) }));
      });
      asked.on('error', (error: NodeJS.ErrnoException) => reject(asked.reusedSocket && error.code === 'ECONNRESET' ? new StaleSocket(error.message) : error));
      asked.end(sent.body.length > 0 ? sent.body : undefined);
    });
  const server = createServer((req, res) => {
    void (async () => {
      const original: ProxiedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: plainHeaders(req.headers), body: await readBody(req) };
      const rewritten = rules.request ? await rules.request(original) : original;
      let answer: ProxiedAnswer;
      if (isAnswer(rewritten)) {
        answer = rewritten;
      } else {
        answer = await ask(rewritten);
        if (rules.answer) answer = rules.answer(rewritten, answer);
      }
      await send(res, original.method, answer, rules.chunks ? rules.chunks(answer) : [answer.body], rules.holdOpen?.(answer));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy error: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          upstream.destroy();
          resolve();
        });
      }),
  };
}

/** An answer's body as JSON, changed by `edit`, with the headers kept. */
export function editJson(answer: ProxiedAnswer, edit: (json: Record<string, unknown>) => void): ProxiedAnswer {
  if (!/json/.test(answer.headers['content-type'] ?? '') || answer.body.length === 0) return answer;
  const json = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
  edit(json);
  return { ...answer, body: Buffer.from(JSON.stringify(json)) };
}

/** A request's JSON body changed by `edit`. */
export function editRequestJson(request: ProxiedRequest, edit: (json: Record<string, unknown>) => void): ProxiedRequest {
  if (request.body.length === 0) return request;
  const json = JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
  edit(json);
  return { ...request, body: Buffer.from(JSON.stringify(json)) };
}
