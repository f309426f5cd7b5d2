// Limits on JSON given in query parameters, which the stores must be able to keep. PostgreSQL
// refuses U+0000 and unpaired surrogates in text and JSONB, and deep nesting overflows the stack
// of JSON.stringify, so such input is refused up front with a 422, by both backends alike.
// (Request bodies get the same limits from json-body.ts while they are parsed.)
import type { ValidationIssue } from '../http-errors.ts';

export const MAX_NESTING = 100;
const MAX_ISSUES = 20;

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
  depth: number;
}

function locOf(visit: Visit, root: (string | number)[]): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let v: Visit | undefined = visit; v?.key !== undefined; v = v.parent) keys.unshift(v.key);
  return [...root, ...keys];
}

/** Issues for strings (keys included) PostgreSQL cannot store, and for nesting deeper than MAX_NESTING. */
export function unstorableJson(value: unknown, root: (string | number)[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  // Iterative walk: recursion would itself overflow on the deep input this guards against.
  const pending: Visit[] = [{ value, key: undefined, parent: undefined, depth: 0 }];
  while (pending.length > 0 && issues.length < MAX_ISSUES) {
    const visit = pending.pop()!;
    if (typeof visit.value === 'string') {
      if (UNSTORABLE.test(visit.value)) {
        issues.push({ loc: locOf(visit, root), msg: 'String contains U+0000 or an unpaired surrogate, which cannot be stored; remove it', type: 'string_unstorable' });
      }
      continue;
    }
    if (visit.value === null || typeof visit.value !== 'object') continue;
    if (visit.depth >= MAX_NESTING) {
      issues.push({ loc: locOf(visit, root), msg: `Value is nested deeper than ${MAX_NESTING} levels; flatten it`, type: 'nesting_too_deep' });
      continue;
    }
    const entries: [string | number, unknown][] = Array.isArray(visit.value) ? visit.value.map((v, i) => [i, v]) : Object.entries(visit.value);
    for (const [key, child] of entries) {
      if (typeof key === 'string' && UNSTORABLE.test(key)) {
        issues.push({ loc: locOf({ value: child, key, parent: visit, depth: 0 }, root), msg: 'Key contains U+0000 or an unpaired surrogate, which cannot be stored; rename it', type: 'string_unstorable' });
      }
      pending.push({ value: child, key, parent: visit, depth: visit.depth + 1 });
    }
  }
  return issues;
}
