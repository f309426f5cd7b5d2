// Property tests of the SSE reader and checker: every encoding the SSE format allows of a valid
// run stream, cut into network chunks anywhere, passes every check with the same events; every
// broken stream fails with the failure of its defect.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { framingChecks, metadataFirst, runChecks, type SseFailureKind } from '../../harness/sse/checker.ts';
import { brokenStream, stillBroken, type BrokenKind } from '../../generators/sse/broken.ts';
import { chunkCuts, chunksOf, encodeStream, encodingStyle, PLAIN_STYLE } from '../../generators/sse/encoding.ts';
import { parsedEvents, validRunStream } from '../../generators/sse/stream-model.ts';
import { readFake } from './support/fake-stream.ts';

const EXPECTED_FAILURE: Record<BrokenKind, SseFailureKind> = {
  'missing-data-line': 'event-without-data',
  'missing-event-line': 'event-without-kind',
  'metadata-not-first': 'metadata-not-first',
  'no-run-id': 'metadata-without-run-id',
  'bad-json': 'data-not-json',
  'updates-not-by-node': 'updates-not-by-node',
  unterminated: 'unterminated-event',
  'content-type': 'content-type',
  'never-ending': 'not-ended',
};

const checks = [...framingChecks(1_000), metadataFirst];

describe('SSE checker properties', () => {
  test('every valid encoding, chunked anywhere, passes with identical events', async () => {
    await fc.assert(
      fc.asyncProperty(validRunStream, encodingStyle, chunkCuts, async (model, style, cuts) => {
        const result = await readFake(chunksOf(encodeStream(model, style), cuts));
        expect(runChecks(result, checks)).toEqual([]);
        expect(result.events.map(({ event, data }) => ({ event, data }))).toEqual(parsedEvents(model));
        expect(result.framing.byteOrderMark).toBe(style.byteOrderMark);
      }),
      { numRuns: 150 },
    );
  });

  test('the plain encoding parses to the model too', async () => {
    await fc.assert(
      fc.asyncProperty(validRunStream, async (model) => {
        const result = await readFake([encodeStream(model, PLAIN_STYLE)]);
        expect(result.framing.lineEndings).toEqual(['LF']);
        expect(result.events.map(({ event, data }) => ({ event, data }))).toEqual(parsedEvents(model));
      }),
      { numRuns: 50 },
    );
  });

  test('every broken stream fails with the failure of its defect', async () => {
    await fc.assert(
      fc.asyncProperty(brokenStream, encodingStyle, chunkCuts, async (broken, style, cuts) => {
        fc.pre(stillBroken(broken));
        const result = await readFake(chunksOf(encodeStream(broken.model, style), cuts), {
          contentType: broken.contentType,
          endless: broken.endless,
          timeoutMs: broken.endless ? 20 : 1_000,
        });
        expect(runChecks(result, checks).map((f) => f.kind)).toContain(EXPECTED_FAILURE[broken.kind]);
      }),
      { numRuns: 150 },
    );
  });

  test('the broken-stream generator yields every class, each still broken', () => {
    const samples = fc.sample(brokenStream, { numRuns: 400, seed: 7 });
    expect(new Set(samples.map((s) => s.kind)).size).toBe(Object.keys(EXPECTED_FAILURE).length);
    expect(samples.every(stillBroken)).toBe(true);
  });

  test('a valid stream is never classified as broken', () => {
    fc.assert(
      fc.property(validRunStream, (model) => {
        for (const kind of Object.keys(EXPECTED_FAILURE) as BrokenKind[]) {
          expect(stillBroken({ kind, model, contentType: 'text/event-stream', endless: false })).toBe(false);
        }
      }),
      { numRuns: 100 },
    );
  });
});
