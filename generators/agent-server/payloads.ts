// Assistant payloads: contexts and metadata as JSON objects, and the pure comparison of a
// context a server reports (or a run echoes) with the version that should be in force.
import fc from 'fast-check';
import { matching } from '../matching.ts';

export type JsonObject = Record<string, unknown>;

/**
 * Keys a server of any storage accepts: lowercase words. (`__proto__`-like keys are refused by
 * common JSON parsers, which would test the parser, not the spec.)
 */
export const contextKey = matching(/^[a-z][a-z0-9_]{0,9}$/);

/** Text values: any grapheme except NUL, which some JSON stores cannot hold. */
const text = fc.string({ unit: 'grapheme', maxLength: 16 }).map((s) => s.replace(/\u0000/g, ''));

const leaf = fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }), fc.boolean(), fc.constant(null));

/** A JSON value as it survives a JSON round trip (no -0). */
const jsonValue = fc
  .oneof({ depthSize: 'small' }, leaf, fc.array(leaf, { maxLength: 3 }), fc.dictionary(contextKey, leaf, { maxKeys: 3 }))
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown);

/** An assistant context: any JSON object (the fixture graph has no context schema). */
export const context: fc.Arbitrary<JsonObject> = fc.dictionary(contextKey, jsonValue, { maxKeys: 5 });

/** Extra metadata besides the run's tags. */
export const metadataExtra: fc.Arbitrary<JsonObject> = fc.dictionary(contextKey.map((k) => `m_${k}`), jsonValue, { maxKeys: 3 });

/** The body of POST /assistants, without the run-prefixed name and tags the suite adds. */
export interface AssistantDraft {
  context: JsonObject;
  metadata: JsonObject;
}

export const assistantDraft: fc.Arbitrary<AssistantDraft> = fc.record({ context, metadata: metadataExtra });

/** JSON equality: key order does not matter. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as JsonObject)[k], (b as JsonObject)[k]));
}

export interface ContextComparison {
  ok: boolean;
  /** Keys of the expected context that are missing or differ. */
  wrong: string[];
  /** Keys that only another version had: carried over by a merge. */
  carried: string[];
}

/**
 * Does `observed` show the context `expected` in force? Every expected key must hold its value;
 * no key that only another version of the assistant had may appear (that would be a merge).
 * Other keys are allowed: an effective context may add graph defaults.
 */
export function compareContext(observed: unknown, expected: JsonObject, otherVersions: JsonObject[]): ContextComparison {
  const seen = typeof observed === 'object' && observed !== null && !Array.isArray(observed) ? (observed as JsonObject) : undefined;
  if (!seen) return { ok: false, wrong: Object.keys(expected), carried: [] };
  const wrong = Object.keys(expected).filter((k) => !Object.hasOwn(seen, k) || !sameJson(seen[k], expected[k]));
  const foreign = new Set(otherVersions.flatMap((v) => Object.keys(v)).filter((k) => !Object.hasOwn(expected, k)));
  const carried = Object.keys(seen).filter((k) => foreign.has(k));
  return { ok: wrong.length === 0 && carried.length === 0, wrong, carried };
}
