// A hostile or hanging target gets a clear verdict, never a hung run: requests that get no
// answer fail at the profile's deadline (and after a few, the worker stops sending), and a body
// that never ends is cut off at the size cap.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { certify } from '../support/certify.ts';

const servers: Server[] = [];

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((done) => s.close(done));
  }
});

describe('hostile targets', () => {
  test('a control plane that never answers its API fails quickly with the deadline named', async () => {
    // The preflight GET / is answered; every API request hangs.
    const url = await serve((req, res) => {
      if (req.url === '/') res.end('ok');
    });
    const started = Date.now();
    const run = await certify({
      args: ['--control-plane-url', url, '--api-key', 'k-hostile-1', '--request-timeout-ms', '400', '--requirements', 'CP-CREATE-*,CP-READ-*', '--runs', '3'],
      timeoutMs: 120_000,
    });
    expect(Date.now() - started).toBeLessThan(90_000);
    expect(run.code, run.stderr).toBe(1);
    expect(run.report?.verdict).toBe('not-certified');
    const messages = run.report!.requirements.flatMap((r) => r.failures.flatMap((f) => [f.message, f.seen ?? '', ...f.exchanges.map((e) => e.response)]));
    expect(messages.join('\n')).toMatch(/no complete response within 400 ms/);
  }, 130_000);

  test('a body that never ends is cut off and reported', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/') return void res.end('ok');
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    });
    const run = await certify({
      args: ['--control-plane-url', url, '--api-key', 'k-hostile-2', '--request-timeout-ms', '20000', '--requirements', 'CP-READ-001'],
      timeoutMs: 120_000,
    });
    expect(run.code, run.stderr).toBe(1);
    const text = JSON.stringify(run.report?.requirements);
    expect(text).toMatch(/response body larger than \d+ bytes|no complete response/);
  }, 130_000);
});
