// One SSE framing edge case per test, in the manner of web-platform-tests' eventsource/format-*:
// bytes go through a fake network stream into the harness's reader, then into the checker.
// Everything the SSE format allows must pass with the same events; each defect must fail with
// its own failure.
import { describe, expect, test } from 'vitest';
import { framingChecks, metadataFirst, runChecks, type SseFailure } from '../../harness/sse/checker.ts';
import { readSse, type SseResult } from '../../harness/sse/reader.ts';
import { fakeStream, readFake, type FakeStreamOptions } from './support/fake-stream.ts';

const META = '{"run_id":"1ef9a2c4-0000-4000-8000-000000000001","attempt":1}';
const UPDATE = '{"echo":{"messages":[{"type":"ai","content":"héllo ✓"}]}}';
const EXPECTED = [
  { event: 'metadata', data: META },
  { event: 'updates', data: UPDATE },
];

function failures(result: SseResult): SseFailure[] {
  return runChecks(result, [...framingChecks(1_000), (r) => metadataFirst(r)]);
}

async function accepts(chunks: (Uint8Array | string)[], expected = EXPECTED, options: FakeStreamOptions = {}): Promise<void> {
  const result = await readFake(chunks, options);
  expect(failures(result)).toEqual([]);
  expect(result.events.map(({ event, data }) => ({ event, data }))).toEqual(expected);
}

async function rejects(chunks: (Uint8Array | string)[], kind: SseFailure['kind'], options: FakeStreamOptions & { timeoutMs?: number } = {}): Promise<SseFailure> {
  const result = await readFake(chunks, options);
  const found = failures(result);
  expect(found.map((f) => f.kind)).toContain(kind);
  const failure = found.find((f) => f.kind === kind)!;
  expect(failure.expected.length).toBeGreaterThan(0);
  expect(failure.seen.length).toBeGreaterThan(0);
  return failure;
}

const lf = `event: metadata\ndata: ${META}\n\nevent: updates\ndata: ${UPDATE}\n\n`;

describe('the SSE format is accepted in every form it allows', () => {
  test('LF line ends', () => accepts([lf]));
  test('CRLF line ends', () => accepts([lf.replace(/\n/g, '\r\n')]));
  test('CR line ends', () => accepts([lf.replace(/\n/g, '\r')]));
  test('mixed line ends', () => accepts([`event: metadata\r\ndata: ${META}\r\r\nevent: updates\ndata: ${UPDATE}\r\n\n`]));
  test('CRLF split between CR and LF across chunks', () =>
    accepts([`event: metadata\r`, `\ndata: ${META}\r`, `\n\r`, `\nevent: updates\r\ndata: ${UPDATE}\r\n\r`, '\n']));
  test('comment lines between events', () => accepts([`: hello\nevent: metadata\ndata: ${META}\n\n:\n: more\nevent: updates\ndata: ${UPDATE}\n\n`]));
  test('comment line inside an event', () => accepts([`event: metadata\n: inside\ndata: ${META}\n\nevent: updates\ndata: ${UPDATE}\n\n`]));
  test('heartbeats before, between and after events', () => accepts([`:ping\n\n${lf.replace('\n\nevent', '\n\n: ping\n\nevent')}: ping\n\n`]));
  test('data: without a space', () => accepts([`event:metadata\ndata:${META}\n\nevent:updates\ndata:${UPDATE}\n\n`]));
  test('a second space is part of the value', async () => {
    const result = await readFake([`event: metadata\ndata: ${META}\n\nevent: custom\ndata:  x\n\n`]);
    expect(failures(result)).toEqual([]);
    expect(result.events[1]?.data).toBe(' x');
  });
  test('multi-line data (pretty-printed JSON)', () => {
    const pretty = JSON.stringify(JSON.parse(UPDATE), null, 2);
    const lines = pretty.split('\n').map((l) => `data: ${l}`).join('\n');
    return accepts([`event: metadata\ndata: ${META}\n\nevent: updates\n${lines}\n\n`], [EXPECTED[0]!, { event: 'updates', data: pretty }]);
  });
  test('a data field with no colon is an empty data line', () =>
    accepts([`event: metadata\ndata: ${META}\n\nevent: custom\ndata\n\n`], [EXPECTED[0]!, { event: 'custom', data: '' }]));
  test('an unknown field with no colon is ignored', () => accepts([`event: metadata\nfoo\ndata: ${META}\n\nevent: updates\ndata: ${UPDATE}\nbar: baz\n\n`]));
  test('id: lines', async () => {
    const result = await readFake([`event: metadata\ndata: ${META}\nid: 0\n\nevent: updates\ndata: ${UPDATE}\nid: 1\n\n`]);
    expect(failures(result)).toEqual([]);
    expect(result.events.map((e) => e.id)).toEqual(['0', '1']);
  });
  test('a retry: field in a block of its own', () => accepts([`retry: 3000\n\n${lf}`]));
  test('a retry: field inside an event', () => accepts([`event: metadata\nretry: 10\ndata: ${META}\n\nevent: updates\ndata: ${UPDATE}\n\n`]));
  test('data line before the event line', () => accepts([`data: ${META}\nevent: metadata\n\ndata: ${UPDATE}\nevent: updates\n\n`]));
  test('extra blank lines between events', () => accepts([lf.replace('\n\nevent', '\n\n\n\n\nevent')]));
  test('a byte order mark', () => accepts([`\ufeff${lf}`]));
  test('a byte order mark split across chunks', () => {
    const bytes = new TextEncoder().encode(`\ufeff${lf}`);
    return accepts([bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2)]);
  });
  test('an event split across chunks at every byte', async () => {
    const bytes = new TextEncoder().encode(lf.replace(/\n/g, '\r\n'));
    for (let cut = 1; cut < bytes.length; cut += 1) {
      await accepts([bytes.subarray(0, cut), bytes.subarray(cut)]);
    }
  });
  test('one byte per chunk, through multi-byte characters', () => {
    const bytes = new TextEncoder().encode(lf);
    return accepts([...bytes].map((b) => Uint8Array.of(b)));
  });
  test('Content-Type with a charset parameter and other case', () => accepts([lf], EXPECTED, { contentType: 'Text/Event-Stream; charset=utf-8' }));
  test('events of unknown kinds and non-JSON data of other kinds', () =>
    accepts([`event: metadata\ndata: ${META}\n\nevent: custom\ndata: plain text\n\n`], [EXPECTED[0]!, { event: 'custom', data: 'plain text' }]));
  test('updates may carry null for a node that changed nothing, and framework channels', () =>
    accepts([`event: metadata\ndata: ${META}\n\nevent: updates\ndata: {"a":null,"__interrupt__":[]}\n\n`], [EXPECTED[0]!, { event: 'updates', data: '{"a":null,"__interrupt__":[]}' }]));
});

describe('each defect fails with its own failure', () => {
  test('an event without a data line', () => rejects([`event: metadata\ndata: ${META}\n\nevent: updates\n\n`], 'event-without-data'));
  test('an event without an event line', () => rejects([`event: metadata\ndata: ${META}\n\ndata: ${UPDATE}\n\n`], 'event-without-kind'));
  test('every event named "data", its kind inside the payload', () =>
    rejects([`event: data\ndata: {"event":"metadata","data":${META}}\n\nevent: data\ndata: {"event":"updates","data":${UPDATE}}\n\n`], 'generic-event-name'));
  test('metadata not first', () => rejects([`event: updates\ndata: ${UPDATE}\n\nevent: metadata\ndata: ${META}\n\n`], 'metadata-not-first'));
  test('no metadata event at all', () => rejects([`event: updates\ndata: ${UPDATE}\n\n`], 'no-metadata'));
  test('metadata without run_id', () => rejects([`event: metadata\ndata: {"attempt":1}\n\n`], 'metadata-without-run-id'));
  test('metadata data that is not JSON', () => rejects([`event: metadata\ndata: run_id=1\n\n`], 'data-not-json'));
  test('updates data that is not JSON', () => rejects([`event: metadata\ndata: ${META}\n\nevent: updates\ndata: {echo\n\n`], 'data-not-json'));
  test('updates not keyed by node', () => rejects([`event: metadata\ndata: ${META}\n\nevent: updates\ndata: {"messages":[{"type":"ai","content":"x"}]}\n\n`], 'updates-not-by-node'));
  test('updates data that is a list', () => rejects([`event: metadata\ndata: ${META}\n\nevent: updates\ndata: [{"echo":{}}]\n\n`], 'updates-not-by-node'));
  test('a content type other than text/event-stream', () => rejects([lf], 'content-type', { contentType: 'application/json' }));
  test('no content type', () => rejects([lf], 'content-type', { contentType: null }));
  test('a last event not ended by a blank line', () => rejects([`event: metadata\ndata: ${META}\n\nevent: updates\ndata: ${UPDATE}\n`], 'unterminated-event'));
  test('a stream that never ends fails after the timeout, not a hang', async () => {
    const started = performance.now();
    const failure = await rejects([lf, ': ping\n\n'], 'not-ended', { endless: true, timeoutMs: 50 });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(failure.message).toMatch(/still open after/);
  });
  test('a stream that stalls after metadata fails after the timeout', async () => {
    const failure = await rejects([`event: metadata\ndata: ${META}\n\n`], 'not-ended', { endless: true, timeoutMs: 50 });
    expect(failure.seen).toMatch(/metadata/);
  });
  test('a connection that breaks mid-stream', async () => {
    const handle = fakeStream([`event: metadata\ndata: ${META}\n\n`]);
    const inner = handle.body;
    handle.body = (async function* () {
      yield* inner;
      throw new Error('socket hang up');
    })();
    const result = await readSse(handle, { timeoutMs: 1_000 });
    expect(failures(result).map((f) => f.kind)).toContain('broken');
  });
});
