// One LangGraph JS server for a test run, started when a file first asks for it. Both the
// certification of the server (certify-langgraph.test.ts) and the agent-client pact's
// verification against it (contracts/agent-client.test.ts) used to start one of their own: each
// start compiles the graphs and boots the API (10 to 16 s on a loaded machine). The files run in
// separate workers, so the run's global setup keeps the server behind a small loopback endpoint
// (`inject('langgraphBroker')`): the first file's request starts it, later ones get the same URL,
// and teardown stops it. A run that names neither file never starts it.
import { inject } from 'vitest';
import { startLangGraphServer } from './langgraph-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The loopback endpoint that hands out the run's LangGraph JS server (none outside `npm test`'s configuration). */
    langgraphBroker?: string;
  }
}

/** What a test is handed: the server's URL, and `release` to call when done (stops only a server of the test's own). */
export interface SharedLangGraph {
  url: string;
  release(): Promise<void>;
}

/** The run's LangGraph JS server; outside `npm test`'s configuration (no broker provided), one of the caller's own. */
export async function sharedLangGraphServer(broker = inject('langgraphBroker')): Promise<SharedLangGraph> {
  if (!broker) {
    const own = await startLangGraphServer();
    return { url: own.url, release: () => own.close() };
  }
  const response = await fetch(`${broker}/server`, { method: 'POST' });
  if (!response.ok) throw new Error(`The run's LangGraph JS server did not start: ${await response.text()}`);
  const { url } = (await response.json()) as { url: string };
  return { url, release: async () => undefined };
}
