// Checks every request passes before it may change anything: the JSON body against its schema,
// path ids and paging. Failures are 422 HTTPValidationError.
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
