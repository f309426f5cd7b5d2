// Assertions shared by the schema tests: a value is accepted, or refused with an issue at a loc.
import { expect } from 'vitest';
import { validate, type SchemaName, type ValidationIssue } from '../../schemas/index.ts';

export function expectValid(name: SchemaName, value: unknown): void {
  const result = validate(name, value);
  expect(result.ok ? [] : result.issues, `${name} should accept ${JSON.stringify(value)}`).toEqual([]);
}

/** Refused, with (among others) an issue at `loc` of the given type. Returns all issues. */
export function expectIssue(name: SchemaName, value: unknown, loc: (string | number)[], type: string): ValidationIssue[] {
  const result = validate(name, value);
  expect(result.ok, `${name} should refuse ${JSON.stringify(value)}`).toBe(false);
  const issues = result.ok ? [] : result.issues;
  expect(issues).toContainEqual(expect.objectContaining({ loc, type }));
  return issues;
}

/** A deep copy of `value` with the dotted path set (or removed, for `undefined`). */
export function withField<T>(value: T, path: (string | number)[], field: unknown): T {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (field === undefined) delete target[last];
  else target[last] = field;
  return copy as T;
}
