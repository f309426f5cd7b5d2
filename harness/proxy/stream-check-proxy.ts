// A pass-through proxy between the Pact verifier and an agent server: every answer goes back to
// the verifier byte for byte, and every event stream is also read by the harness's SSE reader
// and judged by its checker, so a framing error is reported in the checker's words beside
// Pact's whole-body mismatch (Pact matches the stream only as text).
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Exchange } from '../http/exchange.ts';
import { framingChecks, metadataFirst, runChecks, type SseFailure } from '../sse/checker.ts';
import { readSse } from '../sse/reader.ts';

export interface StreamFinding {
  /** `POST /threads/<id>/runs/stream` */
  request: string;
  failures: SseFailure[];
}

export interface StreamCheckProxy {
  url: string;
  /** One entry per event stream, in the order the verifier requested them. */
  findings: StreamFinding[];
  close(): Promise<void>;
}

const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host']);

function isStream(path: string, response: IncomingMessage): boolean {
  return /\/runs\/stream(?:\?|$)/.test(path) || (response.headers['content-type'] ?? '').startsWith('text/event-stream');
}

export async function startStreamCheckProxy(target: string, timeoutMs: number): Promise<StreamCheckProxy> {
  const base = new URL(target);
  const findings: StreamFinding[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP.has(k)));
    const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
    const upstream = send(new URL(base.pathname.replace(/\/+$/, '') + path, base), { method: req.method, headers }, (response) => {
      res.writeHead(response.statusCode ?? 502, Object.fromEntries(Object.entries(response.headers).filter(([k]) => !HOP.has(k))));
      if (!isStream(path, response)) {
        response.pipe(res);
        return;
      }
      const slot: StreamFinding = { request: `${req.method} ${path}`, failures: [] };
      findings.push(slot);
      const exchange: Exchange = {
        interface: 'agent-server',
        request: { method: req.method ?? 'GET', url: path, headers: {} },
        response: { status: response.statusCode ?? 0, headers: Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k, String(v)])), text: '' },
        startedAt: new Date().toISOString(),
        durationMs: 0,
      };
      async function* tee(): AsyncGenerator<Uint8Array> {
        for await (const chunk of response) {
          res.write(chunk);
          yield chunk as Uint8Array;
        }
      }
      void readSse({ exchange, body: tee(), abort: () => response.destroy() }, { timeoutMs }).then((result) => {
        slot.failures = runChecks(result, [...framingChecks(timeoutMs), (r) => metadataFirst(r)]);
        res.end();
      });
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`stream-check proxy: ${error.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    findings,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
