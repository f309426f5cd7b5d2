// The streams an SSE test judges: one fixture run per variant (a stream mode, with or without a
// thread), side by side, each judged on its own. A variant the server refuses, or whose stream
// breaks a rule the check reads through, is set aside when it is another rule's failure; the
// check is judged on the others, so a refused thread run does not hide a stateless stream's
// framing. The test stops at such a failure only when no stream is left to judge.
import { type Check, type SseFailure, type SseResult, eventsAreComplete } from '../../../harness/conformance/index.ts';
import { createAssistant } from './assistants.ts';
import { tryCreateThread } from './threads.ts';
import { attemptStream, humanInput, runRule, type RunRefusal, type StreamMode } from './runs.ts';

export interface Variant {
  /** undefined: no stream_mode in the request. */
  mode: StreamMode | undefined;
  thread: boolean;
}

export interface Streamed {
  label: string;
  /** The rule the stream's request relies on (ruleOf). */
  rule: string;
  content: string;
  /** The stream, or why the run did not stream. */
  attempt: { result: SseResult } | { refused: RunRefusal };
}

/** A stream that was judged: its result is there. */
export type Judged = Streamed & { result: SseResult };

/** A rule a check reads the stream through, and the check of it. */
export interface Through {
  rule: string;
  check: (result: SseResult) => SseFailure | undefined;
}

export const UPDATES_BOTH: Variant[] = [
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

/**
 * A refused string `updates` run: AS-SSE-006's failure when the same run with the list form
 * streams (spec 4.2: "string or array of strings"), else the rule the run relies on.
 */
async function refusalOf(t: Check, run: Parameters<typeof attemptStream>[1], refused: RunRefusal): Promise<RunRefusal> {
  if (run.streamMode !== 'updates') return refused;
  const listed = await attemptStream(t, { ...run, streamMode: ['updates'] });
  if ('refused' in listed) return refused;
  return {
    ...refused,
    requirement: 'AS-SSE-006',
    message: `${refused.message} The same run with stream_mode ["updates"] streamed: the string form was refused.`,
  };
}

/** Streams one fixture run per variant, side by side, by a fresh assistant (of `graphId` if given). */
export async function streams(t: Check, variants: Variant[], graphId?: string): Promise<Streamed[]> {
  const { id } = await createAssistant(t, { context: { apc_case: 'sse' }, ...(graphId ? { graphId } : {}) });
  return Promise.all(
    variants.map(async (variant): Promise<Streamed> => {
      const threadId = variant.thread ? await tryCreateThread(t) : undefined;
      const content = t.name('sse');
      const rule = ruleOf(variant, graphId);
      if (variant.thread && threadId === undefined) {
        const refused = {
          requirement: 'AS-THR-001',
          message: `${labelOf(variant)}: POST /threads made no thread to run on.`,
          expected: 'a thread with thread_id',
        };
        return { label: labelOf(variant), rule, content, attempt: { refused } };
      }
      const run = {
        assistantId: id,
        input: humanInput(content),
        ...(threadId ? { threadId } : {}),
        ...(variant.mode !== undefined ? { streamMode: variant.mode } : {}),
      };
      const attempt = await attemptStream(t, run, rule);
      const judged = 'refused' in attempt ? { refused: await refusalOf(t, run, attempt.refused) } : attempt;
      return { label: labelOf(variant), rule, content, attempt: judged };
    }),
  );
}

/** The failure `f` of stream `s`, labelled, as a failure of `rule`. */
function labelled(s: Streamed, f: SseFailure, rule: string): RunRefusal {
  return { requirement: rule, message: `${s.label}: ${f.message}`, expected: f.expected, seen: f.seen };
}

/**
 * Judges `rule` by `check` on each stream that reaches it: the streams that streamed, whole
 * (AS-SSE-002), through every rule of `through`. A stream stopped by `rule` itself fails it; one
 * stopped by another rule is set aside, and when every stream is, the test stops at the first.
 * Returns the streams judged.
 */
export function judgeStreams(t: Check, streamed: Streamed[], rule: string, check: (s: Judged) => SseFailure | undefined, through: Through[] = []): Judged[] {
  const judged: Judged[] = [];
  const aside: RunRefusal[] = [];
  for (const s of streamed) {
    if ('refused' in s.attempt) {
      if (s.attempt.refused.requirement === rule) t.fail(s.attempt.refused);
      aside.push(s.attempt.refused);
      continue;
    }
    const result = s.attempt.result;
    const stop = [{ rule: 'AS-SSE-002', check: eventsAreComplete }, ...through]
      .filter((r) => r.rule !== rule)
      .map((r) => ({ rule: r.rule, failure: r.check(result) }))
      .find((r) => r.failure);
    if (stop) {
      aside.push(labelled(s, stop.failure!, stop.rule));
      continue;
    }
    judged.push({ ...s, result });
  }
  if (judged.length === 0) t.fail(aside[0]!);
  for (const s of judged) {
    const failure = check(s);
    t.expect(failure === undefined, failure ? labelled(s, failure, rule) : { requirement: rule, message: '' });
  }
  return judged;
}
