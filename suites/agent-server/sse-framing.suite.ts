// Run event streams (spec 6), judged by harness/sse/checker.ts on streams of the fixture graph
// in several stream modes, with and without a thread. Streams of one test run side by side, so
// a stalling target costs one stream timeout per test, not one per stream.
import {
  requirement,
  type Check,
  type SseResult,
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
  type SseFailure,
} from '../../harness/conformance/index.ts';
import { createAssistant } from './support/assistants.ts';
import { createThread } from './support/threads.ts';
import { ECHO_NODE, expectSse, humanInput, replyContent, runRule, streamRun, type StreamMode } from './support/runs.ts';

interface Variant {
  /** undefined: no stream_mode in the request. */
  mode: StreamMode | undefined;
  thread: boolean;
}

interface Streamed {
  label: string;
  /** The rule the stream's request relies on (ruleOf). */
  rule: string;
  result: SseResult;
  content: string;
}

const UPDATES_BOTH: Variant[] = [
  { mode: 'updates', thread: false },
  { mode: 'updates', thread: true },
];

function labelOf(v: Variant): string {
  return `${v.thread ? 'thread' : 'stateless'} run, stream_mode ${v.mode === undefined ? 'omitted' : JSON.stringify(v.mode)}`;
}

/**
 * The rule a variant's request relies on: a list of modes (AS-SSE-007), the messages mode
 * (AS-SSE-008), a failing graph (AS-SSE-012), else the thread or stateless run rule.
 */
function ruleOf(variant: Variant, graphId: string | undefined): string {
  if (graphId !== undefined) return 'AS-SSE-012';
  if (Array.isArray(variant.mode)) return 'AS-SSE-007';
  if (variant.mode === 'messages') return 'AS-SSE-008';
  return runRule({ ...(variant.thread ? { threadId: 'thread' } : {}) });
}

/** Streams one fixture run per variant, side by side, by a fresh assistant (of `graphId` if given). */
async function streams(t: Check, variants: Variant[], graphId?: string): Promise<Streamed[]> {
  const { id } = await createAssistant(t, { context: { apc_case: 'sse' }, ...(graphId ? { graphId } : {}) });
  return Promise.all(
    variants.map(async (variant) => {
      const threadId = variant.thread ? await createThread(t) : undefined;
      const content = t.name('sse');
      const rule = ruleOf(variant, graphId);
      const result = await streamRun(t, { assistantId: id, input: humanInput(content), ...(threadId ? { threadId } : {}), ...(variant.mode !== undefined ? { streamMode: variant.mode } : {}) }, rule);
      return { label: labelOf(variant), rule, result, content };
    }),
  );
}

/** Fails `rule` with the first failure of `check` over the streams, naming the stream. */
function expectEach(t: Check, streamed: Streamed[], rule: string, check: (s: Streamed) => SseFailure | undefined): void {
  for (const s of streamed) {
    const failure = check(s);
    expectSse(t, failure && { ...failure, message: `${s.label}: ${failure.message}` }, rule);
  }
}

requirement(
  'AS-SSE-001',
  async (t: Check) => {
    expectEach(t, await streams(t, UPDATES_BOTH), 'AS-SSE-001', (s) => contentTypeIsEventStream(s.result));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-002',
  async (t: Check) => {
    const variants: Variant[] = [...UPDATES_BOTH, { mode: 'messages', thread: false }, { mode: ['updates', 'messages'], thread: true }];
    expectEach(t, await streams(t, variants), 'AS-SSE-002', (s) => eventsAreComplete(s.result));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-003',
  async (t: Check) => {
    expectEach(t, await streams(t, UPDATES_BOTH), 'AS-SSE-003', (s) => metadataCarriesRunId(s.result));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-004',
  async (t: Check) => {
    expectEach(t, await streams(t, UPDATES_BOTH), 'AS-SSE-004', (s) => metadataFirst(s.result));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-005',
  async (t: Check) => {
    const streamed = await streams(t, UPDATES_BOTH);
    // The shape of updates is judged on streams that carry updates at all (AS-SSE-006's rule).
    expectEach(t, streamed, 'AS-SSE-006', (s) => hasEventKinds(s.result, { kinds: ['updates'] }));
    expectEach(t, streamed, 'AS-SSE-005', (s) => updatesMapNodes(s.result) ?? hasUpdateFromNode(s.result, { node: ECHO_NODE }));
    // Whether the run used its input is the run rule's (AS-RUN-001 or AS-RUN-003), not the shape's.
    for (const s of streamed) {
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
    expectEach(t, await streams(t, UPDATES_BOTH), 'AS-SSE-006', (s) => hasEventKinds(s.result, { kinds: ['updates'] }));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-007',
  async (t: Check) => {
    const streamed = await streams(t, [{ mode: ['updates'], thread: false }, { mode: ['updates', 'messages'], thread: false }, { mode: ['updates', 'messages'], thread: true }]);
    expectEach(t, streamed, 'AS-SSE-007', (s) => hasEventKinds(s.result, { kinds: ['updates'] }));
    expectEach(t, streamed.slice(1), 'AS-SSE-007', (s) => hasEventsBesides(s.result, { besides: ['metadata', 'updates'] }));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-008',
  async (t: Check) => {
    const streamed = await streams(t, [{ mode: 'messages', thread: false }, { mode: 'messages', thread: true }]);
    expectEach(t, streamed, 'AS-SSE-008', (s) => hasEventsBesides(s.result, { besides: ['metadata'] }));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-009',
  async (t: Check) => {
    const streamed = await streams(t, [...UPDATES_BOTH, { mode: 'messages', thread: false }]);
    expectEach(t, streamed, 'AS-SSE-009', (s) => streamEnded(s.result, { timeoutMs: t.profile.timeouts.streamMs }));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-010',
  async (t: Check) => {
    expectEach(t, await streams(t, UPDATES_BOTH), 'AS-SSE-010', (s) => metadataCarriesAttempt(s.result));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-011',
  async (t: Check) => {
    const streamed = await streams(t, [{ mode: 'updates', thread: true }, { mode: ['updates', 'messages'], thread: true }]);
    expectEach(t, streamed, 'AS-SSE-011', (s) => eventIdsCount(s.result));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-012',
  async (t: Check) => {
    const streamed = await streams(t, UPDATES_BOTH, t.profile.fixtures.failingGraphId);
    expectEach(t, streamed, 'AS-SSE-012', (s) => errorEventShape(s.result));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);

requirement(
  'AS-SSE-013',
  async (t: Check) => {
    const streamed = await streams(t, [{ mode: undefined, thread: false }, { mode: undefined, thread: true }]);
    expectEach(t, streamed, 'AS-SSE-013', (s) => hasEventKinds(s.result, { kinds: ['values'] }));
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 4 } }, timeout: 'stream' },
);
