// The run's one LangGraph JS server: started on the first file's request only, the same URL for
// every file, stopped once at the end; a start that fails says why to each file that asked.
import { expect, test } from 'vitest';
import { startLangGraphBroker } from './langgraph-broker.ts';
import type { LangGraphServer } from './langgraph-server.ts';
import { sharedLangGraphServer } from './shared-server.ts';

function fakeServers() {
  const events: string[] = [];
  const start = async (): Promise<LangGraphServer> => {
    events.push('start');
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { url: 'http://127.0.0.1:2024', output: () => '', close: async () => void events.push('close') };
  };
  return { events, start };
}

test('files asking at once get one server, started once, and releasing it leaves it running until the run ends', async () => {
  const { events, start } = fakeServers();
  const broker = await startLangGraphBroker(start);
  try {
    const [a, b] = await Promise.all([sharedLangGraphServer(broker.url), sharedLangGraphServer(broker.url)]);
    expect([a.url, b.url]).toEqual(['http://127.0.0.1:2024', 'http://127.0.0.1:2024']);
    await a.release();
    expect((await sharedLangGraphServer(broker.url)).url).toBe('http://127.0.0.1:2024');
    expect(events).toEqual(['start']);
  } finally {
    await broker.close();
  }
  expect(events).toEqual(['start', 'close']);
});

test('a run whose files never ask starts nothing', async () => {
  const { events, start } = fakeServers();
  const broker = await startLangGraphBroker(start);
  await broker.close();
  expect(events).toEqual([]);
});

test('a start that fails is reported to the file with its reason', async () => {
  const broker = await startLangGraphBroker(async () => {
    throw new Error('The LangGraph JS server did not answer GET /ok (it exited with 1)');
  });
  try {
    await expect(sharedLangGraphServer(broker.url)).rejects.toThrow(/did not start: The LangGraph JS server did not answer GET \/ok \(it exited with 1\)/);
    const other = await fetch(`${broker.url}/elsewhere`, { method: 'POST' });
    expect(other.status).toBe(404);
  } finally {
    await broker.close();
  }
});
