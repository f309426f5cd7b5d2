// A run's event stream as data: blocks of `event:` / `data:` / `id:` fields, before any
// encoding. Valid streams follow spec section 6 (metadata with run_id first, updates mapping
// node names to updates, any other kinds after); the encoder (encoding.ts) turns a model into
// bytes in any way the SSE format allows.
import fc from 'fast-check';
import { matching } from '../matching.ts';

/** One block; an absent field is a missing line (broken streams use that). */
export interface SseBlock {
  event?: string;
  data?: string;
  id?: string;
}

export interface StreamModel {
  blocks: SseBlock[];
  /** False when the last block is not ended by a blank line. */
  terminated: boolean;
}

/** An event as an SSE client sees it once parsed. */
export interface ParsedEvent {
  event: string | undefined;
  data: string;
}

/** Kinds of events other than metadata and updates that a server may legitimately send. */
export const OTHER_KINDS = ['values', 'messages', 'messages/partial', 'messages/complete', 'messages/metadata', 'custom', 'debug', 'tasks', 'error'];

/** Text without carriage returns or line feeds, multi-byte characters included. */
export const lineText = (maxLength = 12): fc.Arbitrary<string> =>
  fc.string({ unit: 'grapheme', maxLength }).map((s) => s.replace(/[\r\n]/g, ' '));

/** Any text an SSE data field can carry: line feeds become extra data lines; CR cannot be sent. */
const dataText = fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => s.replace(/\r/g, '\n'));

const key = matching(/^[a-z][a-z0-9_]{0,8}$/);

const jsonLeaf = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));

export const jsonObject: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  key,
  fc.oneof({ depthSize: 'small' }, jsonLeaf, fc.array(jsonLeaf, { maxLength: 3 }), fc.dictionary(key, jsonLeaf, { maxKeys: 3 })),
  { maxKeys: 4 },
);

/** JSON text, sometimes pretty-printed so it spans several data lines. */
export function jsonText(value: unknown, pretty: boolean): string {
  return pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
}

export const nodeName = matching(/^[a-z][a-z0-9_-]{0,10}$/);

export const metadataBlock: fc.Arbitrary<SseBlock> = fc
  .record({ runId: fc.uuid(), attempt: fc.option(fc.nat({ max: 3 }), { nil: undefined }), pretty: fc.boolean() })
  .map(({ runId, attempt, pretty }) => ({
    event: 'metadata',
    data: jsonText({ run_id: runId, ...(attempt !== undefined ? { attempt } : {}) }, pretty),
  }));

export const updatesBlock: fc.Arbitrary<SseBlock> = fc
  .record({ updates: fc.dictionary(nodeName, fc.option(jsonObject, { nil: null }), { minKeys: 1, maxKeys: 3 }), pretty: fc.boolean() })
  .map(({ updates, pretty }) => ({ event: 'updates', data: jsonText(updates, pretty) }));

const otherBlock: fc.Arbitrary<SseBlock> = fc.record({
  event: fc.constantFrom(...OTHER_KINDS),
  data: fc.oneof(
    fc.tuple(jsonObject, fc.boolean()).map(([v, pretty]) => jsonText(v, pretty)),
    dataText,
  ),
});

/** A valid run stream: metadata first, then updates and other events. */
export const validRunStream: fc.Arbitrary<StreamModel> = fc
  .tuple(metadataBlock, fc.array(fc.oneof(updatesBlock, otherBlock), { maxLength: 6 }))
  .map(([metadata, rest]) => ({ blocks: [metadata, ...rest], terminated: true }));

/** What an SSE client parses from a model: blocks with data, except an unterminated last one. */
export function parsedEvents(model: StreamModel): ParsedEvent[] {
  const complete = model.terminated ? model.blocks : model.blocks.slice(0, -1);
  return complete.filter((b) => b.data !== undefined).map((b) => ({ event: b.event === '' ? undefined : b.event, data: b.data! }));
}
