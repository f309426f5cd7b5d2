// The stream-mode and field-notes checks of harness/sse/checker.ts, on streams read through the
// harness's reader: each passes what it should and fails with its own kind otherwise.
import { describe, expect, test } from 'vitest';
import {
  errorEventShape,
  eventIdsCount,
  eventsNameTheirKind,
  hasEventKinds,
  hasEventsBesides,
  hasUpdateFromNode,
  metadataCarriesAttempt,
  nodeUpdates,
} from '../../harness/sse/checker.ts';
import { readFake } from './support/fake-stream.ts';

const META = 'event: metadata\ndata: {"run_id":"r1","attempt":1}\nid: 0\n\n';
const UPDATE = 'event: updates\ndata: {"echo":{"messages":[{"type":"ai","content":"x"}],"context":{"k":1}}}\nid: 1\n\n';
const PARTIAL = 'event: messages/partial\ndata: [{"type":"ai","content":"x"}]\nid: 2\n\n';

describe('stream mode checks', () => {
  test('hasEventKinds wants each listed kind', async () => {
    const result = await readFake([META, UPDATE]);
    expect(hasEventKinds(result, { kinds: ['metadata', 'updates'] })).toBeUndefined();
    expect(hasEventKinds(result, { kinds: ['updates', 'values'] })?.kind).toBe('missing-events');
  });

  test('hasEventsBesides wants an event of another kind', async () => {
    expect(hasEventsBesides(await readFake([META, PARTIAL]), { besides: ['metadata'] })).toBeUndefined();
    const onlyMetadata = await readFake([META]);
    expect(hasEventsBesides(onlyMetadata, { besides: ['metadata'] })).toMatchObject({ kind: 'missing-events', message: 'The stream carried no event besides metadata.' });
  });

  test('nodeUpdates and hasUpdateFromNode find a node’s update', async () => {
    const result = await readFake([META, UPDATE]);
    expect(nodeUpdates(result, 'echo')).toEqual([{ messages: [{ type: 'ai', content: 'x' }], context: { k: 1 } }]);
    expect(hasUpdateFromNode(result, { node: 'echo' })).toBeUndefined();
    expect(hasUpdateFromNode(result, { node: 'other' })?.kind).toBe('no-update-from-node');
  });
});

describe('event lines name the kinds', () => {
  test('a stream of one kind names it; events of several kinds name them', async () => {
    expect(eventsNameTheirKind(await readFake([UPDATE, UPDATE]))).toBeUndefined();
    expect(eventsNameTheirKind(await readFake([META, UPDATE, PARTIAL]))).toBeUndefined();
    // A payload of one kind that holds a `type` field of its own (a message) names nothing.
    expect(eventsNameTheirKind(await readFake(['event: values\ndata: {"type":"values","n":1}\n\n', 'event: values\ndata: {"n":2}\n\n']))).toBeUndefined();
  });

  test('one generic name with the kinds inside the payloads fails', async () => {
    const generic = ['event: data\ndata: {"event":"metadata","data":{"run_id":"r1"}}\n\n', 'event: data\ndata: {"event":"updates","data":{"echo":{}}}\n\n'];
    expect(eventsNameTheirKind(await readFake(generic))).toMatchObject({ kind: 'generic-event-name' });
    expect((await readFake(generic)).events.every((e) => e.event === 'data')).toBe(true);
    const typed = ['event: message\ndata: {"type":"metadata","run_id":"r1"}\n\n', 'event: message\ndata: {"type":"updates","echo":{}}\n\n'];
    expect(eventsNameTheirKind(await readFake(typed))?.message).toContain('named "message"');
  });
});

describe('field-notes checks', () => {
  test('metadata with attempt', async () => {
    expect(metadataCarriesAttempt(await readFake([META]))).toBeUndefined();
    expect(metadataCarriesAttempt(await readFake(['event: metadata\ndata: {"run_id":"r1"}\n\n']))?.kind).toBe('metadata-without-attempt');
  });

  test('ids counting from 0', async () => {
    expect(eventIdsCount(await readFake([META, UPDATE, PARTIAL]))).toBeUndefined();
    expect(eventIdsCount(await readFake([META, PARTIAL]))).toMatchObject({ kind: 'event-ids', seen: 'ids 0, 2' });
    expect(eventIdsCount(await readFake(['event: metadata\ndata: {"run_id":"r1"}\n\n']))?.kind).toBe('event-ids');
  });

  test('an error event with error and message', async () => {
    expect(errorEventShape(await readFake([META, 'event: error\ndata: {"error":"ValueError","message":"boom"}\n\n']))).toBeUndefined();
    expect(errorEventShape(await readFake([META, 'event: error\ndata: "boom"\n\n']))?.kind).toBe('error-event-shape');
    expect(errorEventShape(await readFake([META]))?.message).toBe('The failing run yielded no error event.');
  });
});
