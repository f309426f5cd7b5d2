// A stream's deadline for its response headers starts when it is sent, not while it waits for a
// slot of the limiter. Against a target whose POSTs take seconds, the assistant command sequences
// (side by side, one request in flight) queued run streams behind each other; counted from the
// queue, they passed the deadline, and those "no complete answer"s opened the circuit breaker on a
// conforming target.
import { createServer, type Server } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { InterfaceClient, Recorder } from '../../harness/http/client.ts';
import { Limiter } from '../../harness/http/limiter.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

test('four streams through one slot, each answered after 300 ms, against a header deadline of 500 ms: all open', async () => {
  server = createServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/event-stream' }).end('event: end\ndata: null\n\n'), 300);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const profile = { ...defaultProfile(), timeouts: { ...defaultProfile().timeouts, streamMs: 500 } };
  const client = new InterfaceClient('agent-server', `http://127.0.0.1:${port}`, profile, new Recorder(), new Limiter(1));
  const opened = await Promise.all([1, 2, 3, 4].map(() => client.openStream({ method: 'POST', path: '/runs/stream', body: {} })));
  for (const handle of opened) {
    expect('body' in handle ? handle.exchange.response?.status : handle.error).toBe(200);
    if ('body' in handle) handle.abort('read enough');
  }
});
