// Path and query parameters of the experiment-upload API, checked the way the body is: a bad value is a
// 422 HTTPValidationError naming it (`["path", "dataset_id"]`, `["query", "limit"]`).
import { unprocessable, type ValidationIssue } from '../http-errors.ts';
import { unstorableJson } from './json-limits.ts';
import type { Page } from './store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (text: string): boolean => UUID.test(text);

/** The path segment as a lowercase UUID, or a 422. */
export function pathUuid(value: string, name: string): string {
  if (isUuid(value)) return value.toLowerCase();
  throw unprocessable([{ loc: ['path', name], msg: `Input should be a valid UUID like 123e4567-e89b-12d3-a456-426614174000; got ${JSON.stringify(value)}`, type: 'uuid_parsing' }]);
}

export type Query = Record<string, string | string[] | undefined>;

/** Reads query parameters, collecting issues; `done()` throws them as one 422. */
export class QueryReader {
  private readonly issues: ValidationIssue[] = [];
  constructor(private readonly query: Query) {}

  string(name: string): string | undefined {
    const raw = this.query[name];
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    const unstorable = unstorableJson(value, ['query', name]);
    if (unstorable.length === 0) return value;
    this.issues.push(...unstorable);
    return undefined;
  }

  uuid(name: string): string | undefined {
    const value = this.string(name);
    if (value === undefined || isUuid(value)) return value?.toLowerCase();
    this.issues.push({ loc: ['query', name], msg: `Input should be a valid UUID; got ${JSON.stringify(value)}`, type: 'uuid_parsing' });
    return undefined;
  }

  boolean(name: string): boolean | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (value === 'true' || value === 'false') return value === 'true';
    this.issues.push({ loc: ['query', name], msg: `Input should be true or false; got ${JSON.stringify(value)}`, type: 'bool_parsing' });
    return undefined;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.string(name);
    if (value === undefined) return fallback;
    const n = /^-?\d{1,9}$/.test(value) ? Number(value) : NaN;
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    this.issues.push({ loc: ['query', name], msg: `Input should be an integer from ${min} to ${max}; got ${JSON.stringify(value)}`, type: 'int_parsing' });
    return fallback;
  }

  page(): Page {
    return { limit: this.integer('limit', 100, 1, 100), offset: this.integer('offset', 0, 0, 1_000_000_000) };
  }

  done(): void {
    if (this.issues.length > 0) throw unprocessable(this.issues);
  }
}
