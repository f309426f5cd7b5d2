// The whole-body pattern agent-client's pact uses for its run stream: it accepts every framing
// the SSE format allows of "metadata with a run_id, then updates", and refuses streams whose
// events a client would not read that way. The SSE checker re-judges streams at verification,
// so what a pattern cannot see (JSON validity after the first line) is left to it.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { brokenStream } from '../../generators/sse/broken.ts';
import { encodeText, encodingStyle } from '../../generators/sse/encoding.ts';
import { updatesBlock, validRunStream } from '../../generators/sse/stream-model.ts';
import { RUN_STREAM_PATTERN } from '../../contracts/agent-client/run-stream.ts';

const pattern = new RegExp(RUN_STREAM_PATTERN);

const withUpdates = fc
  .tuple(validRunStream, updatesBlock)
  .map(([model, extra]) => (model.blocks.some((b) => b.event === 'updates') ? model : { ...model, blocks: [...model.blocks, extra] }));

describe('run stream pattern of the agent-client pact', () => {
  test('accepts any framing of a valid run stream with an updates event', () => {
    fc.assert(
      fc.property(withUpdates, encodingStyle, (model, style) => {
        expect(encodeText(model, style)).toMatch(pattern);
      }),
      { numRuns: 300 },
    );
  });

  test('refuses streams whose metadata is not first, lacks a run_id, or whose last event is cut off', () => {
    const kinds = ['metadata-not-first', 'no-run-id', 'unterminated'];
    fc.assert(
      fc.property(
        brokenStream.filter((b) => kinds.includes(b.kind)),
        encodingStyle,
        (broken, style) => {
          expect(encodeText(broken.model, style)).not.toMatch(pattern);
        },
      ),
      { numRuns: 300 },
    );
  });

  test.each([
    ['no event: lines', 'data: {"run_id": "r1"}\n\ndata: {"echo": {}}\n\n'],
    ['no data line in the metadata event', 'event: metadata\n\nevent: updates\ndata: {"echo": {}}\n\n'],
    ['no updates event', 'event: metadata\ndata: {"run_id": "r1"}\n\nevent: values\ndata: {}\n\n'],
    ['an event before metadata', 'event: values\ndata: {}\n\nevent: metadata\ndata: {"run_id": "r1"}\n\nevent: updates\ndata: {"echo": {}}\n\n'],
    ['an empty run_id', 'event: metadata\ndata: {"run_id": ""}\n\nevent: updates\ndata: {"echo": {}}\n\n'],
    ['CRLF line ends without a blank line between the events', 'event: metadata\r\ndata: {"run_id": "r1"}\r\nevent: updates\r\ndata: {"echo": {}}\r\n\r\n'],
    ['a later event: line overriding metadata', 'event: metadata\ndata: {"run_id": "r1"}\nevent: values\n\nevent: updates\ndata: {"echo": {}}\n\n'],
  ])('refuses a stream with %s', (_name, text) => {
    expect(text).not.toMatch(pattern);
  });

  test.each([
    ['the plain framing the field notes saw', 'event: metadata\ndata: {"run_id": "r1", "attempt": 1}\nid: 0\n\nevent: updates\ndata: {"echo": {}}\nid: 1\n\n'],
    ['data before event, CR line ends and a BOM', '\ufeffdata:{"run_id":"r1"}\revent:metadata\r\r: ping\revent: updates\rdata: {"echo": {}}\r\r'],
    ['a retry block, comments and blank lines first', 'retry: 1000\n\n: hi\n\n\nevent: metadata\ndata: {"run_id": "r1"}\n\nevent: updates\ndata: {"echo": {}}\n\n: bye\n'],
  ])('accepts %s', (_name, text) => {
    expect(text).toMatch(pattern);
  });
});
