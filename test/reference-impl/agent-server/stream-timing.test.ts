// A run of `echo` starts streaming at once and the response ends right after the last event:
// no polling delay, no idle timeout. Bounds are loose for a busy test machine; the benchmark
// (bench/agent-server.bench.ts) measures the real figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './support.ts';

describe('stream timing of echo', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('memory');
  });
  afterAll(async () => {
    await server?.close();
  });

  // The real platform's open-source server takes about 550 ms per stream (field notes): these
  // bounds sit well below that yet leave room for a loaded machine.
  it('sends the first event and closes within a small fraction of a second', async () => {
    const totals: number[] = [];
    const firsts: number[] = [];
    const { body: thread } = await server.call('POST', '/threads', {});
    for (let i = 0; i < 20; i += 1) {
      const reply = await server.stream(`/threads/${thread.thread_id}/runs/stream`, { assistant_id: 'echo', input: { messages: [`run ${i}`] }, stream_mode: ['updates', 'messages'] });
      expect(reply.frames.at(-1)!.event).toBe('messages/complete');
      firsts.push(reply.firstByteMs);
      totals.push(reply.totalMs);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    expect(median(firsts)).toBeLessThan(100);
    expect(median(totals)).toBeLessThan(200);
  });
});
