// A StreamHandle fed from bytes in memory, as if they came off the network in these chunks:
// the SSE reader and checker see exactly what a server would have sent, with no socket.
import type { StreamHandle } from '../../../harness/http/client.ts';
import type { Exchange } from '../../../harness/http/exchange.ts';
import { readSse, type SseResult } from '../../../harness/sse/reader.ts';

export interface FakeStreamOptions {
  /** Content-Type header; null sends none. Default text/event-stream. */
  contentType?: string | null;
  /** After the last chunk, stay open until the reader gives up. */
  endless?: boolean;
}

export function fakeStream(chunks: (Uint8Array | string)[], options: FakeStreamOptions = {}): StreamHandle {
  const contentType = options.contentType === undefined ? 'text/event-stream' : options.contentType;
  const exchange: Exchange = {
    interface: 'agent-server',
    request: { method: 'POST', url: 'http://agent.test/runs/stream', headers: {} },
    response: { status: 200, headers: contentType === null ? {} : { 'content-type': contentType }, text: '' },
    startedAt: new Date().toISOString(),
    durationMs: 0,
  };
  let abort: (reason: string) => void = () => undefined;
  const aborted = new Promise<string>((resolve) => (abort = resolve));
  const encoder = new TextEncoder();
  async function* body(): AsyncGenerator<Uint8Array> {
    for (const chunk of chunks) {
      // Each chunk arrives in its own turn of the event loop, as network reads do.
      await new Promise((resolve) => setImmediate(resolve));
      yield typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    }
    if (options.endless) throw new Error(await aborted);
  }
  return { exchange, body: body(), abort: (reason) => abort(reason), passedDeadline: (reason) => abort(reason), ended: () => undefined };
}

/** Reads a fake stream with the harness's reader. */
export function readFake(chunks: (Uint8Array | string)[], options: FakeStreamOptions & { timeoutMs?: number } = {}): Promise<SseResult> {
  return readSse(fakeStream(chunks, options), { timeoutMs: options.timeoutMs ?? 1_000 });
}
