// Requests Node's HTTP server answers on its own, before any route runs, with an empty body or
// none at all: an HTTP/1.1 request with no Host header (an empty 400), an `Expect` other than
// `100-continue` (an empty 417) and a `CONNECT` (the socket is closed unanswered). The reference
// answers each with the documented 4xx `{detail}` body instead, as it does for every other refusal.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** Node's own Host check must be off (`http: { requireHostHeader: false }`) for the hook to see the request. */
export const BARE_ANSWER_HTTP_OPTIONS = { requireHostHeader: false };

export const NO_HOST_DETAIL = 'The request has no Host header; HTTP/1.1 requires one.';
export const CONNECT_DETAIL = 'CONNECT is not supported: this server is not a proxy.';

export function installBareAnswers(app: FastifyInstance): void {
  // Registered before any other hook, so a request without Host is refused before authentication.
  app.addHook('onRequest', async (request, reply) => {
    const { httpVersionMajor, httpVersionMinor, headers } = request.raw;
    if (httpVersionMajor === 1 && httpVersionMinor >= 1 && headers.host === undefined) {
      // The `{detail}` shape of http-errors.ts, written here: that module imports this one.
      return reply.code(400).header('connection', 'close').type('application/json').send({ detail: NO_HOST_DETAIL });
    }
  });
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const detail = `The expectation '${request.headers.expect ?? ''}' cannot be met; only '100-continue' is supported.`;
    writeJson(response, 417, detail);
  });
  app.server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    const body = JSON.stringify({ detail: CONNECT_DETAIL });
    const head = [
      `HTTP/1.1 405 ${STATUS_CODES[405]}`,
      'Allow: GET, POST, PUT, PATCH, DELETE',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ];
    socket.on('error', () => socket.destroy());
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
}

function writeJson(response: ServerResponse, status: number, detail: string): void {
  const body = JSON.stringify({ detail });
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  response.end(body);
}
