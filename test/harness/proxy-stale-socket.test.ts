// The rewriting proxy keeps its connections to the target alive. A target that closes an idle
// socket just as the proxy sends on it resets the request before answering; the proxy sends it
// again on a new socket instead of answering 502 (a valid create answered 502 failed CP-CREATE-001
// in a loaded multi-fault selftest run).
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { startProxy, type Proxy } from '../../harness/proxy/proxy.ts';

let upstream: Server | undefined;
let proxy: Proxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
});

test('a request reset on a reused socket is sent again on a new one, once; the target reads it once', async () => {
  const served = new WeakMap<Socket, number>();
  const bodies: string[] = [];
  // Every socket's second request is reset unread, as a socket closed while idle is.
  upstream = createServer((req, res) => {
    const count = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, count);
    if (count > 1) return void req.socket.destroy();
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      bodies.push(Buffer.concat(parts).toString());
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
  proxy = await startProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, {});
  for (const n of [1, 2, 3]) {
    const answer = await fetch(`${proxy.url}/v2/deployments`, { method: 'POST', body: JSON.stringify({ n }), headers: { 'content-type': 'application/json' } });
    expect(answer.status, await answer.clone().text()).toBe(201);
    expect(await answer.json()).toEqual({ ok: true });
  }
  expect(bodies).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
});

test('a target that refuses the connection still gets the 502 that says so', async () => {
  upstream = createServer(() => undefined);
  await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
  const port = (upstream.address() as AddressInfo).port;
  await new Promise((resolve) => upstream!.close(resolve));
  upstream = undefined;
  proxy = await startProxy(`http://127.0.0.1:${port}`, {});
  const answer = await fetch(`${proxy.url}/v2/deployments`);
  expect(answer.status).toBe(502);
  expect(await answer.text()).toMatch(/^proxy error: .*ECONNREFUSED/);
});
