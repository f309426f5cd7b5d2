// Checks of a run's event stream (spec section 6) on what harness/sse/reader.ts read: small
// plain functions `(result, expectations) → failure | undefined`. They judge only what the spec
// and the SSE format say, and accept everything the format allows (any line ending, comments
// and heartbeats, `data:` with or without a space, multi-line data, `id:` and `retry:` fields,
// a byte order mark, events split across chunks anywhere).
import type { SseEvent, SseResult } from './reader.ts';
import { isObject } from '../../schemas/is-object.ts';

export type SseFailureKind =
  | 'content-type'
  | 'not-ended'
  | 'broken'
  | 'event-without-kind'
  | 'event-without-data'
  | 'generic-event-name'
  | 'unterminated-event'
  | 'no-metadata'
  | 'metadata-not-first'
  | 'metadata-without-run-id'
  | 'data-not-json'
  | 'updates-not-by-node'
  | 'missing-events'
  | 'no-update-from-node'
  | 'metadata-without-attempt'
  | 'event-ids'
  | 'error-event-shape';

export interface SseFailure {
  kind: SseFailureKind;
  message: string;
  expected: string;
  seen: string;
}

export type SseCheck<E = void> = (result: SseResult, expectations: E) => SseFailure | undefined;

const EVENT_STREAM = 'text/event-stream';
const SHOWN = 300;

function clip(text: string): string {
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}… (${text.length} characters)` : text;
}

function showEvent(event: SseEvent): string {
  return clip(`event: ${event.event ?? '(none)'} data: ${event.data}`);
}

function kinds(result: SseResult): string {
  const list = result.events.map((e) => e.event ?? 'message');
  return list.length === 0 ? 'no events' : `events ${list.join(', ')}`;
}

type Parsed = { ok: true; value: unknown } | { ok: false };

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}


function notJson(event: SseEvent, what: string): SseFailure {
  return {
    kind: 'data-not-json',
    message: `The data of a ${event.event ?? 'message'} event is not JSON; ${what}.`,
    expected: `a JSON document in the data of every ${event.event ?? 'message'} event`,
    seen: showEvent(event),
  };
}

/** The response's media type is text/event-stream (parameters such as charset allowed). */
export const contentTypeIsEventStream: SseCheck = (result) => {
  const header = result.exchange.response?.headers['content-type'];
  const media = header?.split(';')[0]?.trim().toLowerCase();
  if (media === EVENT_STREAM) return undefined;
  return {
    kind: 'content-type',
    message: `A run stream must be answered with Content-Type ${EVENT_STREAM}; the response said ${header === undefined ? 'nothing' : JSON.stringify(header)}.`,
    expected: `Content-Type: ${EVENT_STREAM}`,
    seen: header === undefined ? 'no Content-Type header' : `Content-Type: ${header}`,
  };
};

/** The server closed the stream before the deadline, and the connection did not break. */
export const streamEnded: SseCheck<{ timeoutMs: number }> = (result, { timeoutMs }) => {
  if (result.timedOut) {
    const stalled = result.events.length === 0 ? 'no event arrived' : `${result.events.length} event(s) arrived (${kinds(result)})`;
    return {
      kind: 'not-ended',
      message:
        `The stream was still open after ${timeoutMs} ms, the profile's stream timeout: ${stalled}, then the server neither sent more nor closed. ` +
        'A run stream must close once the run is over; if the target is merely slow, raise --stream-timeout-ms.',
      expected: `the server closes the stream within ${timeoutMs} ms`,
      seen: `still open after ${result.elapsedMs} ms; ${kinds(result)}`,
    };
  }
  if (result.error !== undefined) {
    return {
      kind: 'broken',
      message: `The stream broke before the server closed it: ${result.error}.`,
      expected: 'the server closes the stream after its last event',
      seen: `${result.error}; ${kinds(result)}`,
    };
  }
  return undefined;
};

/**
 * Every event block has an `event:` line and a `data:` line, and the last one was ended by a
 * blank line (the SSE format drops an unterminated event). Blocks holding only `id:`, `retry:`
 * or unknown fields are not events and are accepted. The event lines name the kinds
 * (eventsNameTheirKind).
 */
export const eventsAreComplete: SseCheck = (result) => {
  for (const block of result.framing.blocks) {
    const names = new Set(block.fields.map((f) => f.name));
    const shown = clip(block.fields.map((f) => `${f.name}: ${f.value}`).join(' | '));
    if (names.has('data') && !names.has('event')) {
      return {
        kind: 'event-without-kind',
        message: 'An event has a data line but no event line naming its kind.',
        expected: 'an event: line and a data: line in every event',
        seen: shown,
      };
    }
    if (names.has('event') && !names.has('data')) {
      return {
        kind: 'event-without-data',
        message: 'An event has an event line but no data line; SSE clients drop such an event.',
        expected: 'an event: line and a data: line in every event',
        seen: shown,
      };
    }
  }
  const open = result.framing.unterminated
    .split('\n')
    .filter((line) => !line.startsWith(':'))
    .some((line) => /^(event|data)(:|$)/.test(line));
  if (open) {
    return {
      kind: 'unterminated-event',
      message: 'The stream closed in the middle of an event: no blank line ended it, so SSE clients drop it.',
      expected: 'every event ended by a blank line',
      seen: clip(result.framing.unterminated),
    };
  }
  return eventsNameTheirKind(result);
};

/** Top-level fields in which a stream that does not name its kinds puts them instead. */
const KIND_FIELDS = ['event', 'kind', 'type'] as const;

/** The kind a payload names in one of KIND_FIELDS, if it names one other than `name`. */
function kindInPayload(event: SseEvent, name: string): string | undefined {
  const parsed = parseJson(event.data);
  if (!parsed.ok || !isObject(parsed.value)) return undefined;
  const value = parsed.value;
  return KIND_FIELDS.map((field) => value[field]).find((kind): kind is string => typeof kind === 'string' && kind !== name);
}

/**
 * The event lines name the kinds (spec 6: "an `event:` line naming the kind"): a stream whose
 * events all carry one generic name (`event: data`) and put the kind inside the payload fails.
 * A stream of one kind alone (every event `updates`) names its kind and passes.
 */
export const eventsNameTheirKind: SseCheck = (result) => {
  const names = new Set(result.events.map((e) => e.event ?? 'message'));
  if (result.events.length < 2 || names.size !== 1) return undefined;
  const name = [...names][0]!;
  const inside = result.events.map((e) => kindInPayload(e, name)).filter((kind): kind is string => kind !== undefined);
  if (inside.length === 0) return undefined;
  return {
    kind: 'generic-event-name',
    message: `Every event of the stream is named "${name}", and the payloads name the kinds instead (${[...new Set(inside)].join(', ')}): the event lines do not name the kinds.`,
    expected: 'event: lines naming each event\'s kind (metadata, updates, ...)',
    seen: clip(result.events.map(showEvent).join(' | ')),
  };
};

/** The first event is `metadata` (field notes; the spec does not state the order). */
export const metadataFirst: SseCheck = (result) => {
  const first = result.events[0];
  if (first?.event === 'metadata') return undefined;
  return {
    kind: first === undefined ? 'no-metadata' : 'metadata-not-first',
    message: first === undefined ? 'The stream carried no event at all.' : `The first event is ${first.event ?? 'an unnamed event'}, not metadata.`,
    expected: 'metadata as the first event',
    seen: kinds(result),
  };
};

/** A `metadata` event whose data is a JSON object with a non-empty string `run_id`. */
export const metadataCarriesRunId: SseCheck = (result) => {
  const event = result.events.find((e) => e.event === 'metadata');
  if (!event) {
    return {
      kind: 'no-metadata',
      message: 'The stream carried no metadata event, so the run_id never arrived.',
      expected: 'an event: metadata whose data holds run_id',
      seen: kinds(result),
    };
  }
  const parsed = parseJson(event.data);
  if (!parsed.ok) return notJson(event, 'expected an object holding run_id');
  const runId = isObject(parsed.value) ? parsed.value.run_id : undefined;
  if (typeof runId === 'string' && runId.length > 0) return undefined;
  return {
    kind: 'metadata-without-run-id',
    message: 'The metadata event does not carry a run_id.',
    expected: 'metadata data: a JSON object with a non-empty string run_id',
    seen: showEvent(event),
  };
};

/**
 * Every `updates` event maps node names to state updates: a JSON object whose values are
 * objects (or null for a node that changed nothing). Keys starting with `__` are the
 * framework's own channels (e.g. interrupts) and may hold anything.
 */
export const updatesMapNodes: SseCheck = (result) => {
  for (const event of result.events.filter((e) => e.event === 'updates')) {
    const parsed = parseJson(event.data);
    if (!parsed.ok) return notJson(event, 'expected an object mapping node names to updates');
    const value = parsed.value;
    const wrong = isObject(value)
      ? Object.entries(value).find(([key, update]) => !key.startsWith('__') && update !== null && !isObject(update))
      : undefined;
    if (isObject(value) && wrong === undefined) continue;
    return {
      kind: 'updates-not-by-node',
      message: isObject(value)
        ? `An updates event maps "${wrong![0]}" to ${JSON.stringify(wrong![1])?.slice(0, 80)}, which is not a node's state update (an object).`
        : 'The data of an updates event is not an object mapping node names to their updates.',
      expected: 'updates data: {"<node name>": {<state key>: <value>, ...}, ...}',
      seen: showEvent(event),
    };
  }
  return undefined;
};

/** Each of the given event kinds occurs at least once. */
export const hasEventKinds: SseCheck<{ kinds: string[] }> = (result, expectations) => {
  const seen = new Set(result.events.map((e) => e.event ?? 'message'));
  const missing = expectations.kinds.filter((k) => !seen.has(k));
  if (missing.length === 0) return undefined;
  return {
    kind: 'missing-events',
    message: `The stream carried no ${missing.join(' or ')} event.`,
    expected: `at least one event of each kind: ${expectations.kinds.join(', ')}`,
    seen: kinds(result),
  };
};

/** At least one event of a kind other than the listed ones (e.g. besides metadata). */
export const hasEventsBesides: SseCheck<{ besides: string[] }> = (result, expectations) => {
  if (result.events.some((e) => !expectations.besides.includes(e.event ?? 'message'))) return undefined;
  return {
    kind: 'missing-events',
    message: `The stream carried no event besides ${expectations.besides.join(', ')}.`,
    expected: `events other than ${expectations.besides.join(', ')}`,
    seen: kinds(result),
  };
};

/** The updates the named node made, in stream order (objects only). */
export function nodeUpdates(result: SseResult, node: string): Record<string, unknown>[] {
  return result.events
    .filter((e) => e.event === 'updates')
    .flatMap((e) => {
      const parsed = parseJson(e.data);
      const update = parsed.ok && isObject(parsed.value) ? parsed.value[node] : undefined;
      return isObject(update) ? [update] : [];
    });
}

/** Some updates event carries the named node's update. */
export const hasUpdateFromNode: SseCheck<{ node: string }> = (result, { node }) => {
  if (nodeUpdates(result, node).length > 0) return undefined;
  const updates = result.events.filter((e) => e.event === 'updates');
  return {
    kind: 'no-update-from-node',
    message: `No updates event carries an update of the node "${node}".`,
    expected: `updates data {"${node}": {...}}`,
    seen: updates.length === 0 ? kinds(result) : clip(updates.map((e) => e.data).join(' | ')),
  };
};

/** The metadata event's data also carries `attempt` (field notes). */
export const metadataCarriesAttempt: SseCheck = (result) => {
  const event = result.events.find((e) => e.event === 'metadata');
  const parsed = event ? parseJson(event.data) : { ok: false as const };
  if (parsed.ok && isObject(parsed.value) && typeof parsed.value.attempt === 'number') return undefined;
  return {
    kind: 'metadata-without-attempt',
    message: 'The metadata event does not carry attempt (a number).',
    expected: 'metadata data {"run_id": "...", "attempt": 1}',
    seen: event ? showEvent(event) : kinds(result),
  };
};

/** Events carry `id:` lines 0, 1, 2, … (field notes: thread streams). */
export const eventIdsCount: SseCheck = (result) => {
  const ids = result.events.map((e) => e.id);
  if (ids.length > 0 && ids.every((id, index) => id === String(index))) return undefined;
  return {
    kind: 'event-ids',
    message: 'The events do not carry id lines counting up from 0.',
    expected: `ids ${result.events.map((_, i) => i).join(', ') || '0, 1, …'}`,
    seen: `ids ${ids.map((id) => id ?? '(none)').join(', ') || '(no events)'}`,
  };
};

/** A failing run yields `event: error` with `{error, message}` strings (field notes). */
export const errorEventShape: SseCheck = (result) => {
  const event = result.events.find((e) => e.event === 'error');
  const parsed = event ? parseJson(event.data) : { ok: false as const };
  if (parsed.ok && isObject(parsed.value) && typeof parsed.value.error === 'string' && typeof parsed.value.message === 'string') {
    return undefined;
  }
  return {
    kind: 'error-event-shape',
    message: event ? 'The error event does not hold error and message strings.' : 'The failing run yielded no error event.',
    expected: 'event: error, data {"error": "<name>", "message": "<text>"}',
    seen: event ? showEvent(event) : kinds(result),
  };
};

/** Runs checks in order and returns every failure. */
export function runChecks(result: SseResult, checks: ((result: SseResult) => SseFailure | undefined)[]): SseFailure[] {
  return checks.map((check) => check(result)).filter((f): f is SseFailure => f !== undefined);
}

/** The checks every run stream must pass, whatever its stream mode. */
export function framingChecks(timeoutMs: number): ((result: SseResult) => SseFailure | undefined)[] {
  return [
    (r) => contentTypeIsEventStream(r),
    (r) => streamEnded(r, { timeoutMs }),
    (r) => eventsAreComplete(r),
    (r) => metadataCarriesRunId(r),
    (r) => updatesMapNodes(r),
  ];
}
