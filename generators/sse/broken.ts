// Broken run streams, one class each, built from a valid stream by one deliberate defect, and
// `stillBroken`, which re-checks on the model that a (shrunk) case still has its defect.
import fc from 'fast-check';
import { matching } from '../matching.ts';
import { jsonText, updatesBlock, validRunStream, type SseBlock, type StreamModel } from './stream-model.ts';
import { isObject } from '../../schemas/is-object.ts';

export const BROKEN_KINDS = [
  'missing-data-line',
  'missing-event-line',
  'metadata-not-first',
  'no-run-id',
  'bad-json',
  'updates-not-by-node',
  'unterminated',
  'content-type',
  'never-ending',
] as const;
export type BrokenKind = (typeof BROKEN_KINDS)[number];

export interface BrokenStream {
  kind: BrokenKind;
  model: StreamModel;
  contentType: string;
  /** The server never closes the stream. */
  endless: boolean;
}

export const EVENT_STREAM = 'text/event-stream';

function parses(text: string | undefined): { ok: boolean; value?: unknown } {
  if (text === undefined) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}


const notJson = fc
  .tuple(fc.constantFrom('{', "{'run_id': 'r'}", 'run_id=r', '{"a": }', 'undefined', '', 'NaN', '{"a":1}}'), fc.constantFrom('', ' x', '\n{'))
  .map(([a, b]) => a + b)
  .filter((text) => !parses(text).ok);

const metadataWithoutRunId = fc.oneof(
  fc.constant({}),
  fc.constant({ attempt: 1 }),
  fc.constant({ run_id: '' }),
  fc.constant({ run_id: null }),
  fc.nat().map((n) => ({ run_id: n })),
  fc.constant([]),
  fc.uuid().map((id) => ({ runId: id })),
);

const notAnUpdate = fc.oneof(fc.constant([]), fc.string({ maxLength: 5 }), fc.integer(), fc.constant(true), fc.constant([{ type: 'ai', content: 'x' }]));

const notNodeMap = fc.oneof(
  notAnUpdate.map((v) => ({ messages: v })),
  fc.tuple(matching(/^[a-z]{1,6}$/), notAnUpdate).map(([node, v]) => ({ [node]: v })),
  fc.constant([{ echo: {} }]),
  fc.constant('echo'),
  fc.integer(),
);

/** Index in 1..n-1 chosen by a raw number (n >= 2). */
function laterIndex(raw: number, length: number): number {
  return 1 + (raw % (length - 1));
}

function withBlock(model: StreamModel, index: number, block: SseBlock): StreamModel {
  return { ...model, blocks: model.blocks.map((b, i) => (i === index ? block : b)) };
}

/** Makes sure the model has at least one updates block after metadata, returning its index. */
function ensureUpdates(model: StreamModel, extra: SseBlock): { model: StreamModel; index: number } {
  const index = model.blocks.findIndex((b) => b.event === 'updates');
  if (index >= 0) return { model, index };
  return { model: { ...model, blocks: [...model.blocks, extra] }, index: model.blocks.length };
}

const plain = (kind: BrokenKind, model: StreamModel): BrokenStream => ({ kind, model, contentType: EVENT_STREAM, endless: false });

export const brokenStream: fc.Arbitrary<BrokenStream> = fc
  .record({ kind: fc.constantFrom(...BROKEN_KINDS), base: validRunStream, pick: fc.nat(), extra: updatesBlock, notJson, metadataWithoutRunId, notNodeMap, pretty: fc.boolean(), contentType: fc.constantFrom('application/json', 'text/plain; charset=utf-8', 'application/x-ndjson', 'text/html', 'text/event-streams') })
  .map(({ kind, base, pick, extra, notJson: bad, metadataWithoutRunId: meta, notNodeMap: map, pretty, contentType }): BrokenStream => {
    const index = pick % base.blocks.length;
    const block = base.blocks[index]!;
    switch (kind) {
      case 'missing-data-line':
        return plain(kind, withBlock(base, index, { event: block.event! }));
      case 'missing-event-line':
        return plain(kind, withBlock(base, index, { data: block.data! }));
      case 'metadata-not-first': {
        const { model } = ensureUpdates(base, extra);
        const [metadata, ...rest] = model.blocks;
        const at = laterIndex(pick, model.blocks.length);
        return plain(kind, { ...model, blocks: [...rest.slice(0, at), metadata!, ...rest.slice(at)] });
      }
      case 'no-run-id':
        return plain(kind, withBlock(base, 0, { event: 'metadata', data: jsonText(meta, pretty) }));
      case 'bad-json': {
        const { model, index: updates } = ensureUpdates(base, extra);
        return plain(kind, withBlock(model, pick % 2 === 0 ? 0 : updates, { event: pick % 2 === 0 ? 'metadata' : 'updates', data: bad }));
      }
      case 'updates-not-by-node': {
        const { model, index: updates } = ensureUpdates(base, extra);
        return plain(kind, withBlock(model, updates, { event: 'updates', data: jsonText(map, pretty) }));
      }
      case 'unterminated': {
        const { model } = ensureUpdates(base, extra);
        return plain(kind, { ...model, terminated: false });
      }
      case 'content-type':
        return { kind, model: base, contentType, endless: false };
      case 'never-ending':
        return { kind, model: base, contentType: EVENT_STREAM, endless: true };
    }
  });

function nodeMap(value: unknown): boolean {
  return isObject(value) && Object.entries(value).every(([k, v]) => k.startsWith('__') || v === null || isObject(v));
}

/** True when the stream still has the defect its class names (for fast-check's shrinking). */
export function stillBroken(stream: BrokenStream): boolean {
  const { blocks } = stream.model;
  switch (stream.kind) {
    case 'missing-data-line':
      return blocks.some((b) => b.event !== undefined && b.data === undefined);
    case 'missing-event-line':
      return blocks.some((b) => b.data !== undefined && b.event === undefined);
    case 'metadata-not-first':
      return blocks[0] !== undefined && blocks[0].event !== 'metadata' && blocks[0].data !== undefined;
    case 'no-run-id': {
      const parsed = parses(blocks.find((b) => b.event === 'metadata')?.data);
      const runId = parsed.ok && isObject(parsed.value) ? parsed.value.run_id : undefined;
      return parsed.ok && !(typeof runId === 'string' && runId.length > 0);
    }
    case 'bad-json':
      return blocks.some((b) => (b.event === 'metadata' || b.event === 'updates') && !parses(b.data).ok);
    case 'updates-not-by-node':
      return blocks.some((b) => {
        const parsed = parses(b.data);
        return b.event === 'updates' && parsed.ok && !nodeMap(parsed.value);
      });
    case 'unterminated': {
      const last = blocks[blocks.length - 1];
      return !stream.model.terminated && last !== undefined && (last.event !== undefined || last.data !== undefined);
    }
    case 'content-type':
      return stream.contentType.split(';')[0]!.trim().toLowerCase() !== EVENT_STREAM;
    case 'never-ending':
      return stream.endless;
  }
}
