// A stand-in for a Pact Broker that records what it receives, for the publish test (no broker
// can run here). It serves the HAL index with the `pb:publish-contracts` relation and accepts a
// POST there only when the body has the shape of the broker's publish-contracts API; anything
// else is recorded and answered 404, so a client that used another API would fail the test.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface PublishedContract {
  consumerName: string;
  providerName: string;
  specification: string;
  contentType: string;
  /** The pact file as JSON, decoded from base64. */
  pact: { consumer: { name: string }; provider: { name: string }; interactions: unknown[] };
}

export interface RecordingBroker {
  url: string;
  calls: RecordedCall[];
  /** Publications that had the publish-contracts shape. */
  published: { pacticipantName: string; pacticipantVersionNumber: string; branch?: string; contracts: PublishedContract[] }[];
  close(): Promise<void>;
}

function publishBody(text: string): RecordingBroker['published'][number] | undefined {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const contracts = body.contracts as Record<string, unknown>[];
    if (typeof body.pacticipantName !== 'string' || typeof body.pacticipantVersionNumber !== 'string' || !Array.isArray(contracts)) return undefined;
    return {
      pacticipantName: body.pacticipantName,
      pacticipantVersionNumber: body.pacticipantVersionNumber,
      ...(typeof body.branch === 'string' ? { branch: body.branch } : {}),
      contracts: contracts.map((c) => ({
        consumerName: String(c.consumerName),
        providerName: String(c.providerName),
        specification: String(c.specification),
        contentType: String(c.contentType),
        pact: JSON.parse(Buffer.from(String(c.content), 'base64').toString('utf8')) as PublishedContract['pact'],
      })),
    };
  } catch {
    return undefined;
  }
}

export async function startRecordingBroker(options: { refuse?: boolean } = {}): Promise<RecordingBroker> {
  const calls: RecordedCall[] = [];
  const published: RecordingBroker['published'] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      calls.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/hal+json' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'GET' && req.url === '/') {
        json(200, { _links: { 'pb:publish-contracts': { href: `${base}/contracts/publish`, title: 'Publish contracts' } } });
        return;
      }
      const publication = req.method === 'POST' && req.url === '/contracts/publish' ? publishBody(body) : undefined;
      if (!publication) return json(404, { error: 'not the publish-contracts API' });
      if (options.refuse) return json(400, { errors: { contracts: ['refused by the recording broker'] } });
      published.push(publication);
      json(200, {
        notices: [{ type: 'success', text: `published ${publication.pacticipantName} ${publication.pacticipantVersionNumber}` }],
        _embedded: { pacticipant: { name: publication.pacticipantName }, version: { number: publication.pacticipantVersionNumber } },
        _links: { 'pb:pacticipant-version': { href: `${base}/pacticipants/${publication.pacticipantName}/versions/${publication.pacticipantVersionNumber}` } },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    published,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
