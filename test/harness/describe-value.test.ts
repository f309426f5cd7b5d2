// A property's input and a failure's values become text without throwing: fast-check draws
// null-prototype objects, and String() on one throws "Cannot convert object to primitive value",
// which once replaced an upload refused under EU-REQ-001 as EU-RESP-001's failure.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { describeInput, describeValue, safeString } from '../../harness/conformance/failure.ts';
import { validUpload } from '../../generators/experiment-upload/upload.ts';

function nullPrototype(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.assign(Object.create(null) as Record<string, unknown>, fields);
}

describe('describeInput', () => {
  test('a null-prototype object is described as JSON', () => {
    expect(() => String(nullPrototype({ a: 1 }))).toThrow(TypeError);
    expect(describeInput(nullPrototype({ a: 1, rows: [nullPrototype({ b: 'x' })] }))).toBe('{"a":1,"rows":[{"b":"x"}]}');
  });

  test('an object whose toString is not a function (a generated key) is described as JSON', () => {
    expect(describeInput({ toString: 'text', n: 2 })).toBe('{"toString":"text","n":2}');
  });

  test('an input with a toString of its own (a command sequence) is described by it', () => {
    expect(describeInput({ toString: () => 'create, delete' })).toBe('create, delete');
  });

  test('every generated upload case is described as JSON', () => {
    const cases = fc.sample(validUpload(), { numRuns: 50, seed: 1 });
    expect(cases.some((c) => Object.getPrototypeOf(c) === null)).toBe(true);
    for (const c of cases) expect(JSON.parse(describeInput(c)!)).toEqual(JSON.parse(JSON.stringify(c)));
  });
});

describe('describeValue and safeString', () => {
  test('a value JSON cannot write, without a primitive form, is still described', () => {
    const circular = nullPrototype({});
    circular.self = circular;
    expect(describeValue(circular)).toBe('[object Object]');
    expect(safeString(nullPrototype({}))).toBe('[object Object]');
    expect(safeString(42)).toBe('42');
  });
});
