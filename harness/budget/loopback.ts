// The one client of the run's broker (broker.ts), the loopback service of the certifying process
// that a suite worker asks for leases and for the budget's reservations: a JSON POST, its JSON
// answer. No deadline: a lease is answered when the test before it has ended. Connections are
// kept between requests: a run sends hundreds (a reservation and a settlement for each create or
// PATCH under a budget), and a new connection each cost both processes twice the CPU of the
// exchange. An idle kept connection is unreferenced (it never holds a worker open) and dropped
// before the broker's keep-alive timeout would close it under a request.
import { Agent, request } from 'node:http';

const kept = new Agent({ keepAlive: true });

/** POSTs `body` as JSON to `url` and resolves to the JSON answer; an answer other than 200 rejects, naming `service`. */
export function postToBroker(url: string, body: unknown, service: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, agent: kept }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) reject(new Error(`${service} answered ${res.statusCode}: ${text}`));
        else resolve(JSON.parse(text) as Record<string, unknown>);
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
