// Names that PostgreSQL indexes (tracing projects and experiments, datasets, deployments) have a
// length limit on every store alike: a btree entry holds at most about 2,700 bytes, and a name
// of 512 characters stays below that even when every character takes 4 bytes in UTF-8.
import type { ValidationIssue } from './http-errors.ts';

export const MAX_NAME_CHARS = 512;

/** An issue when `name` at `loc` is a string longer than MAX_NAME_CHARS. */
export function nameLengthIssue(name: unknown, loc: (string | number)[]): ValidationIssue[] {
  if (typeof name !== 'string' || name.length <= MAX_NAME_CHARS) return [];
  return [{ loc, msg: `String should have at most ${MAX_NAME_CHARS} characters`, type: 'string_too_long' }];
}
