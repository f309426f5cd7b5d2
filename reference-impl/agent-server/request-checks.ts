// Checks every request passes before it may change anything: the JSON body against its schema,
// path ids, paging, and strings both backends can store. Failures are 422 HTTPValidationError.
import { unprocessable, type ValidationIssue } from '../http-errors.ts';
import { validate, type SchemaName } from '../../schemas/index.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The body if it matches schema `name`, else a 422 naming every problem under `body`. */
export function checkBody<T>(name: SchemaName, body: unknown): T {
  if (body === undefined) throw unprocessable([{ loc: ['body'], msg: 'Field required: send a JSON object.', type: 'missing' }]);
  const result = validate(name, body);
  if (!result.ok) throw unprocessable(result.issues.map((issue) => ({ ...issue, loc: ['body', ...issue.loc] })));
  return body as T;
}

/** A path id that must be a uuid: 422 otherwise, so malformed ids never reach a store. */
export function checkUuidParam(name: string, value: string): string {
  if (!isUuid(value)) {
    throw unprocessable([{ loc: ['path', name], msg: `Input should be a valid UUID; saw ${JSON.stringify(value)}.`, type: 'uuid_parsing' }]);
  }
  return value.toLowerCase();
}

/** Largest page a listing serves. */
export const MAX_LIMIT = 1000;

export function checkPage(body: { limit?: number; offset?: number }, defaultLimit: number): { limit: number; offset: number } {
  const limit = body.limit ?? defaultLimit;
  const offset = body.offset ?? 0;
  const issues: ValidationIssue[] = [];
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    issues.push({ loc: ['body', 'limit'], msg: `limit must be an integer from 1 to ${MAX_LIMIT}; saw ${limit}.`, type: 'limit_range' });
  }
  if (!Number.isSafeInteger(offset) || offset < 0) {
    issues.push({ loc: ['body', 'offset'], msg: `offset must be a non-negative integer; saw ${offset}.`, type: 'offset_range' });
  }
  if (issues.length > 0) throw unprocessable(issues);
  return { limit, offset };
}

/** A lone UTF-16 surrogate: JSON can carry it, PostgreSQL's jsonb and text cannot. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function storableProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'contains an unpaired UTF-16 surrogate';
  return undefined;
}

/** Deepest nesting a body may have: PostgreSQL refuses very deep jsonb, and so do we, alike. */
export const MAX_BODY_DEPTH = 64;

/**
 * Strings (keys included) PostgreSQL cannot store, and nesting deeper than MAX_BODY_DEPTH, are
 * refused on every backend alike, so the memory and PostgreSQL stores accept exactly the same
 * requests. Breadth first without recursion, so no body can exhaust the stack.
 */
export function unstorableIssues(body: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const pending: { value: unknown; loc: (string | number)[] }[] = [{ value: body, loc: ['body'] }];
  for (let at = 0; at < pending.length; at += 1) {
    const { value, loc } = pending[at]!;
    if (typeof value === 'string') {
      const problem = storableProblem(value);
      if (problem) issues.push({ loc, msg: `String ${problem}; remove it.`, type: 'string_unstorable' });
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (loc.length > MAX_BODY_DEPTH) {
      issues.push({ loc: loc.slice(0, 4), msg: `The body nests deeper than ${MAX_BODY_DEPTH} levels; flatten it.`, type: 'too_deep' });
      return issues;
    }
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
    for (const [key, item] of entries) {
      const problem = typeof key === 'string' ? storableProblem(key) : undefined;
      if (problem) issues.push({ loc: [...loc, key], msg: `Key ${problem}; remove it.`, type: 'string_unstorable' });
      pending.push({ value: item, loc: [...loc, key] });
    }
  }
  return issues;
}
