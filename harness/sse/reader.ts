// The one SSE reader of the harness. eventsource-parser turns bytes into events exactly as the
// SSE format defines; a small line scanner beside it keeps the raw framing facts (line endings,
// field order per block, comments) that a conformance check needs and a parser hides. A deadline
// bounds the whole stream, so a target that stalls or never closes cannot hang a run.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Exchange } from '../http/exchange.ts';
import type { StreamHandle } from '../http/client.ts';

export interface SseEvent {
  /** The `event:` field, or undefined when the block had none (then the kind is "message"). */
  event: string | undefined;
  data: string;
  id: string | undefined;
}

export type LineEnding = 'LF' | 'CRLF' | 'CR';

/** One block of the stream as written: the fields in order, up to the blank line ending it. */
export interface RawBlock {
  fields: { name: string; value: string }[];
}

export interface SseFraming {
  lineEndings: LineEnding[];
  comments: string[];
  blocks: RawBlock[];
  retry: number[];
  /** Bytes after the last complete block that no blank line ended. */
  unterminated: string;
  byteOrderMark: boolean;
}

export interface SseResult {
  exchange: Exchange;
  events: SseEvent[];
  framing: SseFraming;
  /** The server closed the stream. */
  ended: boolean;
  /** The deadline passed first; the harness closed the connection. */
  timedOut: boolean;
  firstEventMs: number | undefined;
  elapsedMs: number;
  /** Why reading stopped other than by a close or a timeout. */
  error?: string;
}

/** Splits text into lines across chunks, remembering which line ending each used. */
class LineScanner {
  private pending = '';
  private pendingCr = false;
  readonly endings = new Set<LineEnding>();

  constructor(private readonly onLine: (line: string) => void) {}

  push(text: string): void {
    for (const ch of text) {
      if (this.pendingCr) {
        this.pendingCr = false;
        if (ch === '\n') {
          this.endings.add('CRLF');
          continue;
        }
        this.endings.add('CR');
      }
      if (ch === '\r') {
        this.emit();
        this.pendingCr = true;
      } else if (ch === '\n') {
        this.endings.add('LF');
        this.emit();
      } else {
        this.pending += ch;
      }
    }
  }

  /** At the end of the stream: a trailing CR was a line end. */
  finish(): string {
    if (this.pendingCr) this.endings.add('CR');
    return this.pending;
  }

  private emit(): void {
    const line = this.pending;
    this.pending = '';
    this.onLine(line);
  }
}

export interface ReadOptions {
  /** Deadline for the whole stream from now. */
  timeoutMs: number;
  /** Called for each event as it arrives; return true to stop reading (and close). */
  onEvent?: (event: SseEvent) => boolean | void;
}

export async function readSse(handle: StreamHandle, options: ReadOptions): Promise<SseResult> {
  const started = performance.now();
  const framing: SseFraming = { lineEndings: [], comments: [], blocks: [], retry: [], unterminated: '', byteOrderMark: false };
  const read = eventParser(framing, started, options.onEvent);
  const { parser, events } = read;
  const blocks = blockScanner(framing);
  const { scanner } = blocks;

  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let first = true;
  let timedOut = false;
  let ended = false;
  let error: string | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    const reason = `stream still open after ${options.timeoutMs} ms`;
    if (handle.passedDeadline) handle.passedDeadline(reason);
    else handle.abort(reason);
  }, options.timeoutMs);
  const response = handle.exchange.response!;
  try {
    for await (const chunk of handle.body) {
      let text = decoder.decode(chunk, { stream: true });
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) {
          framing.byteOrderMark = true;
          text = text.slice(1);
        }
      }
      response.text += text;
      scanner.push(text);
      parser.feed(text);
      if (read.stopRequested) {
        handle.abort('reading stopped by the check');
        break;
      }
    }
    if (!timedOut && !read.stopRequested) {
      const rest = decoder.decode();
      response.text += rest;
      scanner.push(rest);
      parser.feed(rest);
      // The parser holds back a final CR in case an LF follows; at the close it was a line end.
      if (response.text.endsWith('\r')) parser.feed('\n');
      ended = true;
      handle.ended?.();
    }
  } catch (caught) {
    if (!timedOut) error = caught instanceof Error ? caught.message : String(caught);
  } finally {
    clearTimeout(timer);
  }
  const tail = scanner.finish();
  framing.unterminated = [...blocks.current.fields.map((f) => `${f.name}: ${f.value}`), tail].filter(Boolean).join('\n');
  framing.lineEndings = [...scanner.endings];
  const elapsedMs = Math.round(performance.now() - started);
  handle.exchange.durationMs += elapsedMs;
  const { firstEventMs } = read;
  return { exchange: handle.exchange, events, framing, ended, timedOut, firstEventMs, elapsedMs, ...(error ? { error } : {}) };
}

/** The events of a stream as eventsource-parser reads them, with comments and retry fields kept in `framing`. */
function eventParser(framing: SseFraming, started: number, onEvent: ReadOptions['onEvent']) {
  const read = {
    events: [] as SseEvent[],
    firstEventMs: undefined as number | undefined,
    /** The check's onEvent asked to stop reading. */
    stopRequested: false,
    parser: createParser({
      onEvent(message: EventSourceMessage) {
        const event = { event: message.event, data: message.data, id: message.id };
        read.events.push(event);
        read.firstEventMs ??= Math.round(performance.now() - started);
        if (onEvent?.(event)) read.stopRequested = true;
      },
      onComment(comment) {
        framing.comments.push(comment);
      },
      onRetry(interval) {
        framing.retry.push(interval);
      },
    }),
  };
  return read;
}

/** The raw blocks of a stream, as written, into `framing.blocks`; `current` is the block no blank line has ended yet. */
function blockScanner(framing: SseFraming) {
  const blocks = {
    current: { fields: [] } as RawBlock,
    scanner: new LineScanner((line) => {
      if (line === '') {
        if (blocks.current.fields.length > 0) framing.blocks.push(blocks.current);
        blocks.current = { fields: [] };
        return;
      }
      if (line.startsWith(':')) return;
      const colon = line.indexOf(':');
      const name = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      blocks.current.fields.push({ name, value });
    }),
  };
  return blocks;
}
