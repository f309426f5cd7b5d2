// Requests Node's HTTP server would answer on its own (an empty 400 for a missing Host, an empty
// 417 for an unmet Expect, no answer to CONNECT) get the documented `{detail}` body on every
// listener of the reference. Sent on a raw socket: an HTTP client would add the Host header itself.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENERS, referenceOn, type RunningReference } from './reference-on.ts';

interface RawReply {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` as is and reads until the server closes the connection. */
function rawExchange(url: string, request: string): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ statusLine, headers, body });
    });
    socket.write(request);
  });
}

function expectDetail(reply: RawReply, status: number): void {
  expect(reply.statusLine).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  const parsed = JSON.parse(reply.body) as { detail: unknown };
  expect(typeof parsed.detail).toBe('string');
  expect((parsed.detail as string).length).toBeGreaterThan(10);
}

let ref: RunningReference;
beforeAll(async () => {
  ref = await referenceOn('memory');
});
afterAll(async () => ref?.close());

describe.each(LISTENERS)('the %s listener answers what Node would answer bare', (listener) => {
  const url = () => ref.server.urls[listener];
  const path = () => new URL(url()).pathname.replace(/\/$/, '') + '/ok';

  it('refuses an HTTP/1.1 request without Host with 400 and a {detail} body', async () => {
    const reply = await rawExchange(url(), `GET ${path()} HTTP/1.1\r\nConnection: close\r\n\r\n`);
    expectDetail(reply, 400);
    expect(JSON.parse(reply.body).detail).toMatch(/Host/);
  });

  it('refuses an unmet Expect with 417 and a {detail} body naming it', async () => {
    const reply = await rawExchange(url(), `GET ${path()} HTTP/1.1\r\nHost: localhost\r\nExpect: nope\r\nConnection: close\r\n\r\n`);
    expectDetail(reply, 417);
    expect(JSON.parse(reply.body).detail).toMatch(/nope/);
  });

  it('answers CONNECT with 405 and a {detail} body, then closes', async () => {
    const reply = await rawExchange(url(), `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`);
    expectDetail(reply, 405);
    expect(JSON.parse(reply.body).detail).toMatch(/CONNECT/);
  });

  it('still serves a request with a Host header', async () => {
    const reply = await rawExchange(url(), `GET ${path()} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    expect(reply.statusLine).not.toMatch(/^HTTP\/1\.1 (400|417|405) /);
    expect(reply.statusLine).toMatch(/^HTTP\/1\.1 [1-4]\d\d /);
  });
});
