// Assistant payload generators and the context comparison that judges runs.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { assistantDraft, compareContext, context, sameJson } from '../../../generators/agent-server/payloads.ts';

describe('assistant payloads', () => {
  test('contexts and metadata survive a JSON round trip unchanged', () => {
    fc.assert(
      fc.property(assistantDraft, (draft) => {
        expect(JSON.parse(JSON.stringify(draft))).toEqual(draft);
        expect(Object.keys(draft.context).every((k) => /^[a-z][a-z0-9_]*$/.test(k))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  test('sameJson ignores key order only', () => {
    expect(sameJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: '1' }, { a: 1 })).toBe(false);
  });

  test('a context equal to the expected one matches, with or without added defaults', () => {
    fc.assert(
      fc.property(context, context, (expected, other) => {
        expect(compareContext(JSON.parse(JSON.stringify(expected)), expected, [other]).ok).toBe(true);
        expect(compareContext({ ...expected, zz_default_only: 1 }, expected, []).ok).toBe(true);
      }),
    );
  });

  test('a merge with another version is caught, and so is a missing or changed key', () => {
    expect(compareContext({ a: 1, b: 2 }, { a: 1 }, [{ b: 2 }])).toEqual({ ok: false, wrong: [], carried: ['b'] });
    expect(compareContext({}, { a: 1 }, [])).toEqual({ ok: false, wrong: ['a'], carried: [] });
    expect(compareContext({ a: 2 }, { a: 1 }, [])).toEqual({ ok: false, wrong: ['a'], carried: [] });
    expect(compareContext('x', { a: 1 }, []).ok).toBe(false);
  });
});
