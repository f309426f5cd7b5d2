// A pass-through HTTP proxy in front of one interface of a target, keeping what the harness
// sent: the redaction test learns from it the secret values the suites generated, and that the
// known key really went over the wire.
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingProxy {
  /** The target's base URL with the proxy's host and port. */
  url: string;
  requests: { headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

export async function recordingProxy(targetUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetUrl);
  const requests: RecordingProxy['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }));
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname.replace(/\/$/, '')}`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** Every `secrets[].value` inside the JSON request bodies. */
export function sentSecrets(requests: RecordingProxy['requests']): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'secrets' && Array.isArray(inner)) {
          for (const s of inner) if (typeof (s as { value?: unknown })?.value === 'string') found.add((s as { value: string }).value);
        } else walk(inner);
      }
    }
  };
  for (const { body } of requests) {
    try {
      walk(JSON.parse(body));
    } catch {
      // Not JSON (or empty): nothing to learn.
    }
  }
  return [...found];
}
