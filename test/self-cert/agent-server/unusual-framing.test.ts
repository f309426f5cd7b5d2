// The other duty: the suites pass a target that follows the spec in ways the reference does not
// use. A proxy re-encodes every event stream of the good reference as the SSE format allows:
// a byte order mark, mixed CRLF/LF/CR line ends, comments and heartbeats, data before event, no
// space after colons, pretty-printed JSON over several data lines, retry and unknown fields, and
// bytes cut into 5-byte chunks (through multi-byte characters).
import { afterAll, expect, test } from 'vitest';
import type { EncodingStyle } from '../../../generators/sse/encoding.ts';
import { certifyByUrl, startTarget, type Reference } from '../../support/reference-target.ts';
import { startProxy, type Proxy } from '../../../harness/selftest/proxy.ts';
import { isEventStream, rewriteStream } from '../../../harness/selftest/sse-rewrite.ts';

const UNUSUAL: EncodingStyle = {
  byteOrderMark: true,
  lineEndings: ['CRLF', 'LF', 'CR'],
  colons: ['tight', 'space'],
  comments: [' heartbeat', null, ''],
  commentsInsideBlocks: true,
  dataFirst: true,
  ids: false,
  retry: 1500,
  unknownField: true,
  extraBlankLines: [1, 0],
  trailingComment: true,
};

const started: (Proxy | Reference)[] = [];
afterAll(async () => {
  for (const s of started.reverse()) await s.close();
});

test('every run and stream rule passes through a proxy writing unusual but valid SSE', async () => {
  const target = await startTarget();
  started.push(target);
  const proxy = await startProxy(target.server.urls.agentServer, {
    answer: (_r, a) =>
      rewriteStream(a, (blocks) => blocks.map((b) => (b.data === undefined ? b : { ...b, data: JSON.stringify(JSON.parse(b.data), null, 2) })), UNUSUAL),
    chunks: (a) => (isEventStream(a) ? Array.from({ length: Math.ceil(a.body.length / 5) }, (_, i) => a.body.subarray(i * 5, i * 5 + 5)) : [a.body]),
  });
  started.push(proxy);
  // The proxy really writes the unusual form.
  const sample = await fetch(`${proxy.url}/runs/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': target.apiKey },
    body: JSON.stringify({ assistant_id: 'echo', input: { messages: [{ type: 'human', content: 'hé' }] }, stream_mode: 'updates' }),
  });
  const bytes = Buffer.from(await sample.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.toString('utf8');
  for (const form of [/\r\n/, /\r(?!\n)/, /: heartbeat/, /retry:/]) expect(text).toMatch(form);
  expect(text.match(/data/g)!.length).toBeGreaterThan(text.match(/event/g)!.length);
  const run = await certifyByUrl({ agentServerUrl: proxy.url, apiKey: target.apiKey, requirements: ['AS-SSE-*', 'AS-RUN-*', 'AS-GRAPH-001', 'AS-THR-001'] });
  expect(run.report, run.stderr).toBeDefined();
  const notPassed = run.report!.requirements.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.failures[0]?.message ?? r.reason ?? ''}`);
  expect(notPassed).toEqual([]);
  // A subset of the catalogue: passed, not certified.
  expect(run.report!.verdict).toBe('passed');
});
