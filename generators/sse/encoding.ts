// Encodes a stream model into bytes in any of the ways the SSE format allows: LF, CRLF or CR
// line ends, comment lines and heartbeats, `data:` with or without a space (or a bare `data`
// for an empty line), fields in any order, `id:` and `retry:` fields, extra blank lines, a byte
// order mark; then cuts the bytes into network chunks at arbitrary offsets (also inside a
// multi-byte UTF-8 character). Every encoding of a model parses to the same events.
import fc from 'fast-check';
import { lineText, type SseBlock, type StreamModel } from './stream-model.ts';

export type LineEnding = 'LF' | 'CRLF' | 'CR';
const ENDINGS: Record<LineEnding, string> = { LF: '\n', CRLF: '\r\n', CR: '\r' };

/** How to write a field's colon: `name: value`, `name:value`, or just `name` when the value is empty. */
export type ColonStyle = 'space' | 'tight' | 'bare';

export interface EncodingStyle {
  byteOrderMark: boolean;
  /** Used in turn, one per line. */
  lineEndings: LineEnding[];
  /** Used in turn, one per field line. */
  colons: ColonStyle[];
  /** Used in turn, one per block: a comment line (heartbeat) written before the block, or none. */
  comments: (string | null)[];
  /** A comment line inside each block, between its fields. */
  commentsInsideBlocks: boolean;
  /** `data:` lines before the `event:` line. */
  dataFirst: boolean;
  /** An `id:` line in every event. */
  ids: boolean;
  /** A `retry:` field in a block of its own at the start. */
  retry: number | null;
  /** An unknown field (`x-note: …`, ignored by SSE clients) in each block. */
  unknownField: boolean;
  /** Used in turn, one per block: extra blank lines after it. */
  extraBlankLines: number[];
  /** A trailing heartbeat comment after the last event. */
  trailingComment: boolean;
}

export const encodingStyle: fc.Arbitrary<EncodingStyle> = fc.record({
  byteOrderMark: fc.boolean(),
  lineEndings: fc.array(fc.constantFrom<LineEnding>('LF', 'CRLF', 'CR'), { minLength: 1, maxLength: 6 }),
  colons: fc.array(fc.constantFrom<ColonStyle>('space', 'tight', 'bare'), { minLength: 1, maxLength: 4 }),
  comments: fc.array(fc.option(lineText(), { nil: null }), { minLength: 1, maxLength: 4 }),
  commentsInsideBlocks: fc.boolean(),
  dataFirst: fc.boolean(),
  ids: fc.boolean(),
  retry: fc.option(fc.nat({ max: 10_000 }), { nil: null }),
  unknownField: fc.boolean(),
  extraBlankLines: fc.array(fc.nat({ max: 2 }), { minLength: 1, maxLength: 3 }),
  trailingComment: fc.boolean(),
});

/** The plainest encoding: what the field notes saw a real server send. */
export const PLAIN_STYLE: EncodingStyle = {
  byteOrderMark: false,
  lineEndings: ['LF'],
  colons: ['space'],
  comments: [null],
  commentsInsideBlocks: false,
  dataFirst: false,
  ids: false,
  retry: null,
  unknownField: false,
  extraBlankLines: [0],
  trailingComment: false,
};

function cycle<T>(list: T[], index: number): T {
  return list[index % list.length]!;
}

class Writer {
  private lines = 0;
  private fields = 0;
  private previous: LineEnding | undefined;
  text = '';

  constructor(private readonly style: EncodingStyle) {}

  line(content: string): void {
    let ending = cycle(this.style.lineEndings, this.lines++);
    // CR then an empty line ended by LF reads as one CRLF: the blank line would vanish.
    if (this.previous === 'CR' && content === '' && ending === 'LF') ending = 'CR';
    this.previous = ending;
    this.text += content + ENDINGS[ending];
  }

  field(name: string, value: string): void {
    const colon = cycle(this.style.colons, this.fields++);
    // A value starting with a space needs the separating space, or the client strips its own.
    if (value.startsWith(' ') || colon === 'space') this.line(`${name}: ${value}`);
    else if (colon === 'bare' && value === '') this.line(name);
    else this.line(`${name}:${value}`);
  }

  comment(text: string): void {
    this.line(`:${text}`);
  }
}

function writeBlock(w: Writer, block: SseBlock, index: number, style: EncodingStyle): void {
  const event = () => block.event !== undefined && w.field('event', block.event);
  const data = () => block.data?.split('\n').forEach((line) => w.field('data', line));
  if (style.dataFirst) data();
  else event();
  if (style.commentsInsideBlocks) w.comment(' keep-alive');
  if (style.dataFirst) event();
  else data();
  if (style.ids && block.id === undefined) w.field('id', String(index));
  if (block.id !== undefined) w.field('id', block.id);
  if (style.unknownField) w.field('x-note', 'ignored');
}

/** The model as text, in the given style. */
export function encodeText(model: StreamModel, style: EncodingStyle): string {
  const w = new Writer(style);
  if (style.retry !== null) {
    w.field('retry', String(style.retry));
    w.line('');
  }
  model.blocks.forEach((block, index) => {
    const comment = cycle(style.comments, index);
    if (comment !== null) w.comment(comment);
    writeBlock(w, block, index, style);
    const last = index === model.blocks.length - 1;
    if (last && !model.terminated) return;
    w.line('');
    for (let i = 0; i < cycle(style.extraBlankLines, index); i += 1) w.line('');
  });
  if (style.trailingComment && model.terminated) w.comment('heartbeat');
  return (style.byteOrderMark ? '\ufeff' : '') + w.text;
}

export function encodeStream(model: StreamModel, style: EncodingStyle): Uint8Array {
  return new TextEncoder().encode(encodeText(model, style));
}

/** Cut points as arbitrary numbers; `chunksOf` maps them onto a byte length. */
export const chunkCuts: fc.Arbitrary<number[]> = fc.array(fc.nat(), { maxLength: 12 });

/** Splits bytes at the given cut points (taken modulo the length), keeping every chunk non-empty. */
export function chunksOf(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  if (bytes.length === 0) return [];
  const points = [...new Set(cuts.map((c) => c % bytes.length).filter((c) => c > 0))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  return chunks;
}
