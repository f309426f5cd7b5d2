// `npm test`'s global setup for the LangGraph JS server: the endpoint that starts it on a file's
// first request (shared-server.ts says why), stopped with the server when the run ends.
import type { TestProject } from 'vitest/node';
import { startLangGraphBroker } from './langgraph-broker.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const broker = await startLangGraphBroker();
  project.provide('langgraphBroker', broker.url);
  return () => broker.close();
}
