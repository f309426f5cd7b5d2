// Server-sent events on a raw Node response: `event:` line, one `data:` line of JSON, `id:` on
// thread streams (counting from 0), blank line. No heartbeats; the response ends after the last
// event. Fault switches that bend the framing live here, marked `fault:`.
import type { ServerResponse } from 'node:http';
import { FAULTS } from './faults.ts';

export interface SseOptions {
  contentLocation: string;
  /** Thread streams number their events. */
  withIds: boolean;
  faults: ReadonlySet<string>;
  /** Called once the connection is gone, whoever closed it. */
  onClosed(): void;
}

export class SseStream {
  private nextId = 0;
  private sent = 0;
  private heldMetadata: string | undefined;
  private stalled = false;
  private gone = false;

  constructor(
    private readonly raw: ServerResponse,
    private readonly options: SseOptions,
  ) {
    // A client that disconnects mid-stream must not surface as an unhandled error.
    raw.on('error', () => undefined);
    raw.on('close', () => {
      this.gone = true;
      options.onClosed();
    });
  }

  /** True once the client went away (or the response ended). */
  get closed(): boolean {
    return this.gone || this.raw.destroyed || this.raw.writableEnded;
  }

  open(): void {
    const contentType = this.options.faults.has(FAULTS.wrongContentType) ? 'text/plain; charset=utf-8' : 'text/event-stream; charset=utf-8';
    this.raw.writeHead(200, {
      'content-type': contentType,
      'cache-control': 'no-cache',
      'content-location': this.options.contentLocation,
      'x-accel-buffering': 'no',
    });
    // Headers go out at once so clients see the response before the first event.
    this.raw.flushHeaders();
  }

  send(event: string, data: unknown): void {
    if (this.closed || this.stalled) return;
    const faults = this.options.faults;
    const index = this.sent++;
    // fault: the event after metadata goes out without its data line.
    const omitData = faults.has(FAULTS.noDataLine) && index === 1;
    let frame = `event: ${event}\n`;
    if (!omitData) frame += `data: ${JSON.stringify(data) ?? 'null'}\n`;
    if (this.options.withIds) frame += `id: ${this.nextId++}\n`;
    frame += '\n';
    // fault: metadata is held back and sent after the first other event.
    if (faults.has(FAULTS.metadataNotFirst) && event === 'metadata' && index === 0) {
      this.heldMetadata = frame;
      return;
    }
    this.raw.write(frame);
    if (this.heldMetadata !== undefined) {
      this.raw.write(this.heldMetadata);
      this.heldMetadata = undefined;
    }
    // fault: after metadata the stream goes silent and never ends.
    if (faults.has(FAULTS.streamStalls) && event === 'metadata') this.stalled = true;
  }

  end(): void {
    if (this.closed) return;
    if (this.heldMetadata !== undefined) this.raw.write(this.heldMetadata);
    // fault: the connection stays open after the last event (or after the stall).
    if (this.stalled || this.options.faults.has(FAULTS.streamNeverEnds)) return;
    this.raw.end();
  }
}
