// A run of `echo` starts streaming at once and the response ends right after the last event:
// no polling delay, no idle timeout. Shared machines are noisy, so nothing here is compared with
// a wall-clock bound: a whole stream is compared with a plain GET /ok measured in the same run
// (a polling server, like the one in the field notes at ~550 ms a stream, is hundreds of times
// slower). The benchmark (bench/agent-server.bench.ts) measures the real figures.
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

  it('streams a whole run in a small multiple of a plain request', async () => {
    const totals: number[] = [];
    const pings: number[] = [];
    const { body: thread } = await server.call('POST', '/threads', {});
    for (let i = 0; i < 20; i += 1) {
      const started = performance.now();
      await server.call('GET', '/ok');
      pings.push(performance.now() - started);
      const reply = await server.stream(`/threads/${thread.thread_id}/runs/stream`, { assistant_id: 'echo', input: { messages: [`run ${i}`] }, stream_mode: ['updates', 'messages'] });
      expect(reply.frames.at(-1)!.event).toBe('messages/complete');
      expect(reply.firstByteMs).toBeLessThanOrEqual(reply.totalMs);
      totals.push(reply.totalMs);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    expect(median(totals) / Math.max(median(pings), 0.5)).toBeLessThan(40);
  });
});
