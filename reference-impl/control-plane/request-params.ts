// Path and query parameters, checked the way the platform's FastAPI service does: a bad value is
// a 422 whose `loc` starts with "path" or "query".
import { unprocessable, type ValidationIssue } from '../http-errors.ts';

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A UUID in canonical lowercase form, or undefined when `value` is not one. */
export function canonicalUuid(value: string): string | undefined {
  if (!UUID.test(value)) return undefined;
  const hex = value.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const uuidIssue = (loc: (string | number)[]): ValidationIssue => ({
  loc,
  msg: 'Input should be a valid UUID',
  type: 'uuid_parsing',
});

/** The path parameter `name` as a canonical UUID, or a 422. */
export function pathUuid(params: unknown, name: string): string {
  const raw = (params as Record<string, unknown> | undefined)?.[name];
  const id = typeof raw === 'string' ? canonicalUuid(raw) : undefined;
  if (!id) throw unprocessable([uuidIssue(['path', name])]);
  return id;
}

/** Reads query parameters, collecting every problem into one 422. */
export class QueryReader {
  private readonly issues: ValidationIssue[] = [];
  private readonly query: Record<string, unknown>;

  constructor(query: unknown) {
    this.query = (query ?? {}) as Record<string, unknown>;
  }

  /** The raw value; a repeated parameter counts by its last value, as FastAPI reads it. */
  text(name: string): string | undefined {
    const value = this.query[name];
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    return typeof last === 'string' ? last : undefined;
  }

  integer(name: string, fallback: number, bounds: { min: number; max?: number }): number {
    const raw = this.text(name);
    if (raw === undefined) return fallback;
    if (!/^[+-]?\d{1,15}$/.test(raw.trim())) {
      this.issues.push({ loc: ['query', name], msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing' });
      return fallback;
    }
    const value = Number(raw.trim());
    if (value < bounds.min) {
      this.issues.push({ loc: ['query', name], msg: `Input should be greater than or equal to ${bounds.min}`, type: 'greater_than_equal' });
    } else if (bounds.max !== undefined && value > bounds.max) {
      this.issues.push({ loc: ['query', name], msg: `Input should be less than or equal to ${bounds.max}`, type: 'less_than_equal' });
    }
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.text(name);
    if (raw === undefined) return fallback;
    const normalized = raw.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(normalized)) return true;
    if (['false', '0', 'no', 'off'].includes(normalized)) return false;
    this.issues.push({ loc: ['query', name], msg: 'Input should be a valid boolean, unable to interpret input', type: 'bool_parsing' });
    return fallback;
  }

  /** A comma-separated list whose items must be among `allowed`. */
  enumList(name: string, allowed: readonly string[]): string[] | undefined {
    const items = this.list(name);
    const unknown = items?.filter((item) => !allowed.includes(item)) ?? [];
    if (unknown.length > 0) {
      this.issues.push({ loc: ['query', name], msg: `Input should be one of ${allowed.map((a) => `'${a}'`).join(', ')}`, type: 'enum' });
      return undefined;
    }
    return items;
  }

  /** A comma-separated list of UUIDs, canonicalized. */
  uuidList(name: string): string[] | undefined {
    const items = this.list(name);
    if (!items) return undefined;
    const ids = items.map(canonicalUuid);
    if (ids.some((id) => id === undefined)) {
      this.issues.push(uuidIssue(['query', name]));
      return undefined;
    }
    return ids as string[];
  }

  /** Throws the collected 422, if any. */
  done(): void {
    if (this.issues.length > 0) throw unprocessable(this.issues);
  }

  private list(name: string): string[] | undefined {
    const raw = this.text(name);
    if (raw === undefined) return undefined;
    return raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
  }
}
