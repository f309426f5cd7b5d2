// The loopback endpoint behind the run's one LangGraph JS server (shared-server.ts says why): run
// by the global setup, it starts the server on the first request and hands every request its URL.
import { createServer, type Server } from 'node:http';
import { startLangGraphServer, type LangGraphServer } from './langgraph-server.ts';

export interface LangGraphBroker {
  url: string;
  close(): Promise<void>;
}

/** The endpoint: `POST /server` starts the server once and answers `{ url }`, or 503 with why it could not start. */
export async function startLangGraphBroker(start: () => Promise<LangGraphServer> = startLangGraphServer): Promise<LangGraphBroker> {
  let server: Promise<LangGraphServer> | undefined;
  const http: Server = createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== '/server') {
      response.writeHead(404).end();
      return;
    }
    server ??= start();
    server.then(
      (s) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: s.url })),
      (error: unknown) => response.writeHead(503, { 'content-type': 'text/plain' }).end(error instanceof Error ? error.message : String(error)),
    );
  });
  await new Promise<void>((listening) => http.listen(0, '127.0.0.1', listening));
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((closed) => http.close(() => closed()));
      // A start that failed has nothing to stop.
      await server?.then((s) => s.close()).catch(() => undefined);
    },
  };
}
