// The ways a suite reads what the fixture's echo node did in a run (its reply and the context it
// ran with), so that a rule about runs is judged on its own path: spec 4.2 lets stream_mode be a
// string or a list, and a values stream shows the state the node left. A server that refuses one
// way (a string stream_mode, say), or streams without its events, fails the rule of that way in
// that rule's own test; every other test reads the echo another way, and is blocked only when no
// way shows it.
import {
  type Check,
  type SseResult,
  eventsAreComplete,
  hasEventKinds,
  hasUpdateFromNode,
  nodeUpdates,
  type SseFailure,
} from '../../../harness/conformance/index.ts';
import { attemptStream, ECHO_NODE, runRule, type RunRefusal, type RunRequest, type StreamMode } from './runs.ts';
import { isObject } from '../../../schemas/is-object.ts';

/** A way: the stream mode sent, and how its stream shows the echo node's update. */
interface EchoWay {
  mode: StreamMode;
  read(result: SseResult): { update: Record<string, unknown> } | { failure: SseFailure; requirement: string };
}

/** The echo node's last update in an updates stream; a stream without them breaks `kindRule`. */
function fromUpdates(kindRule: string): EchoWay['read'] {
  return (result) => {
    const noKind = hasEventKinds(result, { kinds: ['updates'] });
    if (noKind) return { failure: noKind, requirement: kindRule };
    const noNode = hasUpdateFromNode(result, { node: ECHO_NODE });
    if (noNode) return { failure: noNode, requirement: 'AS-SSE-005' };
    return { update: nodeUpdates(result, ECHO_NODE).at(-1)! };
  };
}

/** The state of the last values event: the echo node's reply is its last message, its context the run's. */
const fromValues: EchoWay['read'] = (result) => {
  const states = result.events
    .filter((e) => e.event === 'values')
    .flatMap((e) => {
      try {
        const value: unknown = JSON.parse(e.data);
        return isObject(value) ? [value] : [];
      } catch {
        return [];
      }
    });
  const last = states.at(-1);
  if (last !== undefined && 'context' in last) return { update: last };
  return {
    requirement: 'AS-SSE-013',
    failure: {
      kind: 'missing-events',
      message: "The values stream carried no state holding the run's context.",
      expected: 'a values event with the end state',
      seen: result.events.map((e) => e.event ?? 'message').join(', '),
    },
  };
};

/** In order: the string form (spec 6, AS-SSE-006), the list form (AS-SSE-007), the values mode (field notes). */
const WAYS: EchoWay[] = [
  { mode: 'updates', read: fromUpdates('AS-SSE-006') },
  { mode: ['updates'], read: fromUpdates('AS-SSE-007') },
  { mode: 'values', read: fromValues },
];

/** The echo node's update, with the stream that showed it; or why no way did. */
export type Echoed = { update: Record<string, unknown>; result: SseResult } | { refused: RunRefusal };

/**
 * The echo node's update by the first way that shows it. When none does, the refusal names the
 * rule the first streamed way broke, or `requirement` (the run's rule) when no way streamed.
 */
export async function tryEcho(t: Check, run: Omit<RunRequest, 'streamMode'>, requirement = runRule(run)): Promise<Echoed> {
  let first: RunRefusal | undefined;
  let notStreamed: RunRefusal | undefined;
  for (const way of WAYS) {
    const attempt = await attemptStream(t, { ...run, streamMode: way.mode }, requirement);
    if ('refused' in attempt) {
      notStreamed ??= attempt.refused;
      continue;
    }
    const incomplete = eventsAreComplete(attempt.result);
    const read = incomplete ? { failure: incomplete, requirement: 'AS-SSE-002' } : way.read(attempt.result);
    if ('update' in read) return { update: read.update, result: attempt.result };
    first ??= {
      requirement: read.requirement,
      message: `stream_mode ${JSON.stringify(way.mode)}: ${read.failure.message}`,
      expected: read.failure.expected,
      seen: read.failure.seen,
    };
    // A stream that stalled cost a whole stream timeout: another way would wait it out again.
    if (attempt.result.timedOut) break;
  }
  return { refused: first ?? notStreamed! };
}

/**
 * Runs the fixture and returns what its echo node did ({messages: [... the reply], context}), by
 * the first way that shows it. When none does, the test fails with the rule the first streamed
 * way broke; with `requirement` (by default the run's rule) when no way streamed at all.
 */
export async function runEcho(t: Check, run: Omit<RunRequest, 'streamMode'>, requirement = runRule(run)): Promise<Record<string, unknown>> {
  const echoed = await tryEcho(t, run, requirement);
  if ('refused' in echoed) return t.fail(echoed.refused);
  return echoed.update;
}
