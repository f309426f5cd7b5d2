// Small hostile targets for the bounded-run tests: each misbehaves in one way a real target
// (or the network in front of it) can. Every server answers the preflight `GET /` as asked,
// so the run reaches the suites unless the misbehaviour is at the connection itself.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Hostile {
  url: string;
  close(): Promise<void>;
}

async function listen(server: Server, sockets: Set<Socket>): Promise<Hostile> {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((done) => server.close(done));
    },
  };
}

/** An HTTP server whose `GET /` answers `ok` and every other request goes to `handler`. */
export function hostileHttp(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Hostile> {
  const server = createHttpServer((req, res) => {
    if (req.url === '/') return void res.end('ok');
    // The request body is read (and dropped) so the handler decides only the answer.
    req.resume();
    handler(req, res);
  });
  return listen(server, new Set());
}

/** A port where nothing listens: every connection is refused. */
export async function refusingPort(): Promise<string> {
  const closed = await listen(createTcpServer(), new Set());
  await closed.close();
  return closed.url;
}

/** Accepts connections and never sends a byte. */
export function silentServer(): Promise<Hostile> {
  return listen(createTcpServer(() => undefined), new Set());
}

/** Resets every connection as soon as it is accepted. */
export function resettingServer(): Promise<Hostile> {
  return listen(createTcpServer((socket) => socket.resetAndDestroy()), new Set());
}

/** Answers garbage in turn: HTML, JSON that is not JSON, and a body cut short of its length. */
export function garbageServer(): Promise<Hostile> {
  let turn = 0;
  return hostileHttp((_req, res) => {
    turn += 1;
    if (turn % 3 === 0) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway, try later</body></html>');
    } else if (turn % 3 === 1) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id": "3f1c", "name": nul');
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
      res.write('{"resources": [{"id": ');
      setImmediate(() => res.destroy());
    }
  });
}

/** Answers every request with a valid JSON body of about 10 MB. */
export function hugeBodyServer(bytes = 10 * 1024 * 1024): Promise<Hostile> {
  const body = Buffer.from(JSON.stringify({ detail: 'x'.repeat(bytes) }));
  return hostileHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    res.end(body);
  });
}

/** Sends headers at once, then one byte of a JSON body every `everyMs`, for as long as the client waits. */
export function drippingServer(everyMs = 200): Promise<Hostile> {
  return hostileHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{');
    const timer = setInterval(() => res.write(' '), everyMs);
    res.on('close', () => clearInterval(timer));
  });
}

/** Sends a JSON body that never ends, as fast as the client reads. */
export function endlessBodyServer(): Promise<Hostile> {
  return hostileHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (res.write(chunk));
    };
    res.on('drain', pump);
    pump();
  });
}
