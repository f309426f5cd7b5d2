// A whole-body regular expression for a `text/event-stream` response, for Pact, which has no
// SSE support: the verifier reads the body until the provider closes it and matches it as text.
// The pattern accepts every framing the SSE format allows for the events a consumer needs
// (any line ending, comments, `id:`/`retry:`/unknown fields, fields in any order, `data:` with or
// without a space, a byte order mark, blank lines between events), and nothing else before the
// first required event. Pact's matcher is Rust's `regex` crate: no lookaround, no backreferences,
// so every "any line but ..." is spelled out. contracts/README.md lists what it cannot express.

/** One line end inside an event block: CRLF, LF or CR. */
const SAME = '(?:\\r\\n|\\n|\\r)';
/**
 * The line ends between the last line of a block and the next line: two or more line ends,
 * read as SSE reads them (CRLF is one line end), so at least one blank line.
 */
const BREAK = '(?:\\n[\\r\\n]+|\\r\\r[\\r\\n]*|\\r\\n[\\r\\n]+)';
const REST = '[^\\r\\n]*';
const ANY_LINE = '[^\\r\\n]+';
const COMMENT = `:${REST}`;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A field name other than `word`: differs at some character, is a proper prefix, or is longer.
 * It never starts with U+FEFF, so a stream's byte order mark cannot pass for part of a name.
 */
function nameOtherThan(word: string): string {
  const options: string[] = [];
  for (let i = 0; i < word.length; i++) {
    options.push(`${escape(word.slice(0, i))}[^${escape(word[i]!)}\\r\\n:${i === 0 ? '\\uFEFF' : ''}][^\\r\\n:]*`);
    if (i > 0) options.push(escape(word.slice(0, i)));
  }
  options.push(`${escape(word)}[^\\r\\n:]+`);
  return `(?:${options.join('|')})`;
}

/** A line that is a comment or a field other than `word`. */
function lineOtherThan(word: string): string {
  return `(?:${COMMENT}|${nameOtherThan(word)}(?::${REST})?)`;
}

/** A field line `name: value` (one optional space after the colon, as SSE strips it). */
function field(name: string, value: string): string {
  return `${escape(name)}: ?${value}`;
}

/**
 * An event block whose kind is `kind` (its last `event:` line) with a data line matching
 * `data`: the lines may come in any order, with any other fields and comments among them.
 */
function eventBlock(kind: string, data: string): string {
  const event = field('event', escape(kind));
  const notEvent = lineOtherThan('event');
  const line = (l: string) => `(?:${l})${SAME}`;
  const dataFirst = `(?:${ANY_LINE}${SAME})*${line(data)}(?:${ANY_LINE}${SAME})*${event}(?:${SAME}${notEvent})*`;
  const eventFirst = `(?:${ANY_LINE}${SAME})*${event}${SAME}(?:${notEvent}${SAME})*(?:${data})(?:${SAME}${notEvent})*`;
  return `(?:${dataFirst}|${eventFirst})${BREAK}`;
}

/** A block that dispatches no event: no data line. */
const QUIET_BLOCK = `(?:${lineOtherThan('data')}${SAME})*${lineOtherThan('data')}${BREAK}`;
/** Any block at all. */
const ANY_BLOCK = `(?:${ANY_LINE}${SAME})*${ANY_LINE}${BREAK}`;
/** After the last event: comment lines without a blank line after them dispatch nothing. */
const TRAILING_COMMENTS = `(?:${COMMENT}(?:${SAME}${COMMENT})*${SAME}?)?`;

export interface ExpectedEvent {
  /** The event kind, its `event:` line. */
  kind: string;
  /** A pattern one `data:` line's value must match (without line ends), e.g. a JSON member. */
  data?: string;
}

/**
 * A pattern for a stream whose first event is `events[0]`, followed in order by the other
 * events, with any other events between and after them; the provider closes the stream after
 * complete events. Anchored at both ends, as Pact's regex matcher finds a match anywhere.
 */
export function eventStreamPattern(events: ExpectedEvent[]): string {
  const blocks = events.map((e) => eventBlock(e.kind, `data:${e.data === undefined ? REST : ` ?${e.data}`}`));
  const [first, ...rest] = blocks;
  if (first === undefined) throw new Error('eventStreamPattern needs at least one event');
  const between = `(?:${ANY_BLOCK})*`;
  return `^\\uFEFF?[\\r\\n]*(?:${QUIET_BLOCK})*${first}${rest.map((b) => `${between}${b}`).join('')}${between}${TRAILING_COMMENTS}$`;
}

/** A JSON string member `"name": "<non-empty string>"` (or `"name": "<value>"`) somewhere in a data line. */
export function jsonStringMember(name: string, value?: string): string {
  const text = value === undefined ? '(?:[^"\\\\\\r\\n]|\\\\[^\\r\\n])+' : escape(value);
  return `${REST}"${escape(name)}"[ \\t]*:[ \\t]*"${text}"${REST}`;
}

/** A data line whose value is a JSON object (starts with `{`). */
export const JSON_OBJECT_LINE = `[ \\t]*\\{${REST}`;
