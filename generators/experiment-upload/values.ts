// JSON values for inputs, outputs, metadata and feedback: any shape, as they survive a JSON
// round trip, with keys every store accepts and no NUL characters (which some stores refuse).
import fc from 'fast-check';
import { matching } from '../matching.ts';

export const shortText = fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => s.replace(/\u0000/g, ''));

const key = matching(/^[a-z][a-z0-9_]{0,11}$/);

const leaf = fc.oneof(shortText, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.boolean(), fc.constant(null));

export const jsonObject: fc.Arbitrary<Record<string, unknown>> = fc
  .dictionary(key, fc.oneof({ depthSize: 'small' }, leaf, fc.array(leaf, { maxLength: 3 }), fc.dictionary(key, leaf, { maxKeys: 3 })), { maxKeys: 4 })
  .map((v) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>);
