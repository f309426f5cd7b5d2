// JSON request bodies read under limits before any route sees them, on every listener and both
// stores alike. The parser is our own, iterative and sliced: it never recurses (no nesting can
// overflow the stack), it refuses at the first value beyond a limit (no work is spent on the
// rest), and it yields to the event loop between slices, so a 10 MB body never holds up the
// other requests of the process. Limits are documented in the READMEs under reference-impl/.
import type { FastifyInstance } from 'fastify';
import { badRequest, unprocessable } from './http-errors.ts';

export interface JsonLimits {
  /** Largest body in bytes: a larger one is answered 413 while it arrives, before it is parsed. */
  bodyBytes: number;
  /** Deepest nesting of arrays and objects. */
  depth: number;
  /** Longest string (keys included), in UTF-16 code units. */
  stringChars: number;
  /** Most items in one array, or members in one object. */
  items: number;
  /** True: an empty body is a 400. False: it counts as no body (some clients label bodiless requests so). */
  refuseEmpty?: boolean;
}

export const DEFAULT_JSON_LIMITS: Omit<JsonLimits, 'bodyBytes'> = { depth: 64, stringChars: 1_000_000, items: 10_000 };

/** Characters parsed between two yields to the event loop. */
const SLICE_CHARS = 1 << 14;
/** Bytes decoded between two yields. */
const DECODE_SLICE = 1 << 20;

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** NUL and unpaired surrogates: JSON can carry them, PostgreSQL text and jsonb cannot. */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const CONTROL = /[\u0000-\u001f]/;

type Loc = (string | number)[];
type Container = unknown[] | Record<string, unknown>;

interface Frame {
  container: Container;
  /** The key being read in an object, or the index in an array. */
  at: string | number;
  /** Members attached so far. */
  count: number;
}

const limitIssue = (loc: Loc, msg: string, type: string) => unprocessable([{ loc: ['body', ...loc], msg, type }]);

class Parser {
  private pos = 0;
  private readonly stack: Frame[] = [];

  constructor(
    private readonly text: string,
    private readonly limits: Omit<JsonLimits, 'bodyBytes'>,
  ) {}

  async parse(): Promise<unknown> {
    let nextYield = SLICE_CHARS;
    for (;;) {
      if (this.pos > nextYield) {
        await yieldToOthers();
        nextYield = this.pos + SLICE_CHARS;
      }
      let value = this.valueOrOpen();
      if (value === OPENED) continue;
      // A value is complete: attach it, and close every container it completes.
      for (;;) {
        const top = this.stack.at(-1);
        if (!top) {
          this.skipSpace();
          if (this.pos < this.text.length) throw this.syntax('end of input');
          return value;
        }
        this.attach(top, value);
        this.skipSpace();
        const c = this.text[this.pos++];
        if (c === ',') {
          if (Array.isArray(top.container)) top.at = (top.at as number) + 1;
          else top.at = this.key();
          break;
        }
        if (c === (Array.isArray(top.container) ? ']' : '}')) {
          this.stack.pop();
          value = top.container;
          continue;
        }
        this.pos -= 1;
        throw this.syntax(Array.isArray(top.container) ? "',' or ']'" : "',' or '}'");
      }
    }
  }

  private loc(): Loc {
    return this.stack.map((frame) => frame.at);
  }

  private attach(frame: Frame, value: unknown): void {
    frame.count += 1;
    // Plain assignment is safe: key() refuses "__proto__", which would set the prototype instead.
    if (Array.isArray(frame.container)) frame.container.push(value);
    else frame.container[frame.at] = value;
    if (frame.count > this.limits.items) {
      throw limitIssue(this.loc().slice(0, -1), `More than ${this.limits.items} items in one array or object; send fewer`, 'too_long');
    }
  }

  /** Reads a primitive and returns it, or opens a container (pushed on the stack) and returns OPENED. */
  private valueOrOpen(): unknown {
    this.skipSpace();
    const c = this.text[this.pos];
    if (c === '{' || c === '[') {
      if (this.stack.length >= this.limits.depth) {
        throw limitIssue(this.loc(), `Nested deeper than ${this.limits.depth} levels; flatten it`, 'too_deep');
      }
      this.pos += 1;
      this.skipSpace();
      const empty = this.text[this.pos] === (c === '{' ? '}' : ']');
      if (empty) {
        this.pos += 1;
        return c === '{' ? {} : [];
      }
      if (c === '[') this.stack.push({ container: [], at: 0, count: 0 });
      else {
        const frame: Frame = { container: {}, at: '', count: 0 };
        this.stack.push(frame);
        frame.at = this.key(true);
      }
      return OPENED;
    }
    if (c === '"') return this.string();
    if (c === 't' && this.text.startsWith('true', this.pos)) return this.literal(4, true);
    if (c === 'f' && this.text.startsWith('false', this.pos)) return this.literal(5, false);
    if (c === 'n' && this.text.startsWith('null', this.pos)) return this.literal(4, null);
    return this.number();
  }

  private literal<T>(length: number, value: T): T {
    this.pos += length;
    return value;
  }

  private number(): number {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (!match) throw this.syntax('a JSON value');
    this.pos += match[0].length;
    const value = Number(match[0]);
    // Integer fields that a store keeps in a narrower type check their own range (e.g. versions).
    if (!Number.isFinite(value)) {
      throw limitIssue(this.loc(), `Number ${match[0].slice(0, 40)} is beyond the range of a 64-bit float; send a smaller number`, 'number_out_of_range');
    }
    return value;
  }

  /** Reads `"key":` of an object member (the frame is already on the stack). */
  private key(first = false): string {
    this.skipSpace();
    if (this.text[this.pos] !== '"') throw this.syntax(first ? 'a string key or }' : 'a string key');
    const key = this.string();
    if (key === '__proto__') throw badRequest('Request body has a "__proto__" key, which is refused.');
    this.skipSpace();
    if (this.text[this.pos] !== ':') throw this.syntax("':'");
    this.pos += 1;
    return key;
  }

  private string(): string {
    const start = this.pos;
    let end = start + 1;
    let escaped = false;
    for (;;) {
      const c = this.text.charCodeAt(end);
      if (Number.isNaN(c)) throw this.syntax('the end of a string', end);
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        end += 1;
      }
      end += 1;
    }
    this.pos = end + 1;
    const raw = this.text.slice(start + 1, end);
    let value: string;
    if (escaped) {
      try {
        value = JSON.parse(this.text.slice(start, end + 1)) as string;
      } catch {
        throw this.syntax('a valid string escape', start);
      }
    } else {
      if (CONTROL.test(raw)) throw this.syntax('no control character inside a string', start);
      value = raw;
    }
    if (value.length > this.limits.stringChars) {
      throw limitIssue(this.loc(), `String longer than ${this.limits.stringChars} characters; shorten it`, 'string_too_long');
    }
    // Only an escape can produce NUL or a lone surrogate: the text was decoded from valid UTF-8.
    if (escaped && UNSTORABLE.test(value)) {
      throw limitIssue(this.loc(), 'String contains U+0000 or an unpaired surrogate, which cannot be stored; remove it', 'string_unstorable');
    }
    return value;
  }

  private skipSpace(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.pos += 1;
    }
  }

  private syntax(expected: string, at = this.pos): Error {
    const seen = at < this.text.length ? JSON.stringify(this.text.slice(at, at + 10)) : 'the end of the body';
    return badRequest(`Request body is not valid JSON: expected ${expected} at position ${at}, saw ${seen}.`);
  }
}

const OPENED = Symbol('opened');

/** UTF-8 bytes to text, refusing invalid sequences, a slice at a time. */
async function decodeUtf8(bytes: Buffer): Promise<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const parts: string[] = [];
  try {
    for (let from = 0; from < bytes.length; from += DECODE_SLICE) {
      if (from > 0) await yieldToOthers();
      parts.push(decoder.decode(bytes.subarray(from, from + DECODE_SLICE), { stream: true }));
    }
    parts.push(decoder.decode());
  } catch {
    throw badRequest('Request body is not valid UTF-8; send JSON encoded as UTF-8.');
  }
  return parts.join('');
}

/** Parses a JSON body under `limits`: 400 when it is not JSON, 422 (with `loc`) past a limit. */
export async function parseJsonBody(bytes: Buffer, limits: Omit<JsonLimits, 'bodyBytes'> = DEFAULT_JSON_LIMITS): Promise<unknown> {
  const text = await decodeUtf8(bytes);
  if (text.trim() === '') {
    if (limits.refuseEmpty) throw badRequest('Request body is empty; a JSON object was expected.');
    return undefined;
  }
  return new Parser(text, limits).parse();
}

/** Replaces the scope's JSON parser with the limited one. */
export function installJsonBody(scope: FastifyInstance, limits: JsonLimits): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: limits.bodyBytes }, async (_request: unknown, body: Buffer) =>
    parseJsonBody(body, limits),
  );
}
