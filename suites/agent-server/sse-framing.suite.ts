// Run event streams (spec 6), judged by harness/sse/checker.ts on streams of the fixture graph
// in several stream modes, with and without a thread. Streams of one test run side by side, so
// a stalling target costs one stream timeout per test, not one per stream; each stream is judged
// on its own (support/stream-variants.ts), so one kind's refusal does not hide another's framing.
import {
  requirement,
  type Check,
  contentTypeIsEventStream,
  errorEventShape,
  eventIdsCount,
  eventsAreComplete,
  hasEventKinds,
  hasEventsBesides,
  hasUpdateFromNode,
  metadataCarriesAttempt,
  metadataCarriesRunId,
  metadataFirst,
  streamEnded,
  updatesMapNodes,
} from '../../harness/conformance/index.ts';
import { ECHO_NODE, replyContent } from './support/runs.ts';
import { judgeStreams, streams, UPDATES_BOTH, type Through, type Variant } from './support/stream-variants.ts';

/** Rules about the metadata event are judged on streams that carry one (AS-SSE-003's rule). */
const WITH_METADATA: Through[] = [{ rule: 'AS-SSE-003', check: metadataCarriesRunId }];
/** Rules about updates are judged on streams that carry them (AS-SSE-006's rule). */
const WITH_UPDATES: Through[] = [{ rule: 'AS-SSE-006', check: (r) => hasEventKinds(r, { kinds: ['updates'] }) }];

requirement(
  'AS-SSE-001',
  async (t: Check) => {
    judgeStreams(t, await streams(t, UPDATES_BOTH), 'AS-SSE-001', (s) => contentTypeIsEventStream(s.result));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-002',
  async (t: Check) => {
    const variants: Variant[] = [...UPDATES_BOTH, { mode: 'messages', thread: false }, { mode: ['updates', 'messages'], thread: true }];
    judgeStreams(t, await streams(t, variants), 'AS-SSE-002', (s) => eventsAreComplete(s.result));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-003',
  async (t: Check) => {
    judgeStreams(t, await streams(t, UPDATES_BOTH), 'AS-SSE-003', (s) => metadataCarriesRunId(s.result));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-004',
  async (t: Check) => {
    judgeStreams(t, await streams(t, UPDATES_BOTH), 'AS-SSE-004', (s) => metadataFirst(s.result), WITH_METADATA);
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-005',
  async (t: Check) => {
    // The shape of updates is judged on streams that carry updates at all (AS-SSE-006's rule).
    const judged = judgeStreams(t, await streams(t, UPDATES_BOTH), 'AS-SSE-005', (s) => updatesMapNodes(s.result) ?? hasUpdateFromNode(s.result, { node: ECHO_NODE }), WITH_UPDATES);
    // Whether the run used its input is the run rule's (AS-RUN-001 or AS-RUN-003), not the shape's.
    for (const s of judged) {
      const update = s.result.events.filter((e) => e.event === 'updates').map((e) => JSON.parse(e.data) as Record<string, Record<string, unknown>>).find((d) => d[ECHO_NODE])?.[ECHO_NODE];
      t.expect(update !== undefined && replyContent(update) === s.content, {
        requirement: s.rule,
        message: `${s.label}: the echo node's update does not hold the reply to the input (its messages list should end with ${JSON.stringify(s.content)}); the run did not run on its input.`,
        expected: `{"${ECHO_NODE}": {"messages": [{"type": "ai", "content": ${JSON.stringify(s.content)}}], "context": {...}}}`,
        seen: JSON.stringify(update),
      });
    }
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-006',
  async (t: Check) => {
    judgeStreams(t, await streams(t, UPDATES_BOTH), 'AS-SSE-006', (s) => hasEventKinds(s.result, { kinds: ['updates'] }));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-007',
  async (t: Check) => {
    const streamed = await streams(t, [{ mode: ['updates'], thread: false }, { mode: ['updates', 'messages'], thread: false }, { mode: ['updates', 'messages'], thread: true }]);
    judgeStreams(t, streamed, 'AS-SSE-007', (s) => hasEventKinds(s.result, { kinds: ['updates'] }));
    judgeStreams(t, streamed.slice(1), 'AS-SSE-007', (s) => hasEventsBesides(s.result, { besides: ['metadata', 'updates'] }));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-008',
  async (t: Check) => {
    const streamed = await streams(t, [{ mode: 'messages', thread: false }, { mode: 'messages', thread: true }]);
    judgeStreams(t, streamed, 'AS-SSE-008', (s) => hasEventsBesides(s.result, { besides: ['metadata'] }));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-009',
  async (t: Check) => {
    const streamed = await streams(t, [...UPDATES_BOTH, { mode: 'messages', thread: false }]);
    judgeStreams(t, streamed, 'AS-SSE-009', (s) => streamEnded(s.result, { timeoutMs: t.profile.timeouts.streamMs }));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-010',
  async (t: Check) => {
    judgeStreams(t, await streams(t, UPDATES_BOTH), 'AS-SSE-010', (s) => metadataCarriesAttempt(s.result), WITH_METADATA);
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-011',
  async (t: Check) => {
    const streamed = await streams(t, [{ mode: 'updates', thread: true }, { mode: ['updates', 'messages'], thread: true }]);
    judgeStreams(t, streamed, 'AS-SSE-011', (s) => eventIdsCount(s.result));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-012',
  async (t: Check) => {
    const streamed = await streams(t, UPDATES_BOTH, t.profile.fixtures.failingGraphId);
    judgeStreams(t, streamed, 'AS-SSE-012', (s) => errorEventShape(s.result));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-013',
  async (t: Check) => {
    const streamed = await streams(t, [{ mode: undefined, thread: false }, { mode: undefined, thread: true }]);
    judgeStreams(t, streamed, 'AS-SSE-013', (s) => hasEventKinds(s.result, { kinds: ['values'] }));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);
