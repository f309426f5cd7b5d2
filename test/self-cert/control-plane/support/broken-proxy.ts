// A proxy in front of the reference control plane that breaks rules no fault switch covers: it
// may rewrite the JSON body it forwards, answer a request itself, or rewrite the status or JSON
// body of the reference's answer.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  /** Path below the proxy's base, without the query. */
  path: string;
  body: unknown;
}

export interface Answer {
  status: number;
  body: unknown;
}

export interface Breakage {
  /** Rewrite the JSON body sent on to the target. */
  forward?(request: Seen): unknown;
  /** Answer in the target's place (undefined: forward). */
  answer?(request: Seen): Answer | undefined;
  /** Rewrite the target's answer. */
  rewrite?(request: Seen, answer: Answer): Answer;
}

export interface BrokenProxy {
  url: string;
  close(): Promise<void>;
}

const SKIPPED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

const parse = (text: string): unknown => {
  try {
    return text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
};

/** Starts the proxy; `target` is the control plane's base URL (with its /api-host prefix, if any). */
export async function startBrokenProxy(target: string, breakage: Breakage): Promise<BrokenProxy> {
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await bodyOf(req);
      const [path = '/'] = (req.url ?? '/').split('?');
      const seen: Seen = { method: req.method ?? 'GET', path, body: parse(raw.toString('utf8')) };
      const reply = (answer: Answer) => {
        const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        res.writeHead(answer.status, text ? { 'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json' } : {});
        res.end(text);
      };
      const own = breakage.answer?.(seen);
      if (own) return reply(own);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => !SKIPPED.has(k) && typeof v === 'string')) as Record<string, string>;
      const body = breakage.forward && seen.body !== undefined ? Buffer.from(JSON.stringify(breakage.forward(seen))) : raw;
      const response = await fetch(`${target}${req.url ?? '/'}`, { method: seen.method, headers, ...(body.length > 0 ? { body } : {}) });
      const answer: Answer = { status: response.status, body: parse(await response.text()) };
      reply(breakage.rewrite ? breakage.rewrite(seen, answer) : answer);
    })().catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy error: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
