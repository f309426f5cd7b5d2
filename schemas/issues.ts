// Ajv errors turned into the spec's ValidationError shape ({loc, msg, type}), worded like the
// platform's FastAPI/pydantic answers: `Field required` / `missing`, `Input should be a valid
// integer` / `int_type`, and so on. One issue per problem: the branches of a nullable or union
// field collapse into the issue of the branch that applies.
import type { ErrorObject } from 'ajv';
import type { ValidationError } from './errors.ts';

export type ValidationIssue = ValidationError;
type Loc = (string | number)[];

const TYPE_WORDS: Record<string, { type: string; what: string }> = {
  string: { type: 'string_type', what: 'a valid string' },
  integer: { type: 'int_type', what: 'a valid integer' },
  number: { type: 'float_type', what: 'a valid number' },
  boolean: { type: 'bool_type', what: 'a valid boolean' },
  object: { type: 'dict_type', what: 'a valid dictionary' },
  array: { type: 'list_type', what: 'a valid list' },
  null: { type: 'none_required', what: 'null' },
};

const FORMAT_WORDS: Record<string, { type: string; what: string }> = {
  uuid: { type: 'uuid_parsing', what: 'a valid UUID' },
  'date-time': { type: 'datetime_parsing', what: 'a valid datetime, like 2024-08-03T00:12:39 or 2024-08-03T00:12:39Z' },
};

const BOUND_WORDS: Record<string, { type: string; what: string }> = {
  minimum: { type: 'greater_than_equal', what: 'greater than or equal to' },
  exclusiveMinimum: { type: 'greater_than', what: 'greater than' },
  maximum: { type: 'less_than_equal', what: 'less than or equal to' },
  exclusiveMaximum: { type: 'less_than', what: 'less than' },
};

/** Reads a JSON pointer against the value, so array indices become numbers and keys stay strings. */
function locOf(pointer: string, value: unknown): Loc {
  const loc: Loc = [];
  let current = value;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const key = Array.isArray(current) ? Number(segment) : segment;
    loc.push(key);
    current = current !== null && typeof current === 'object' ? (current as Record<string | number, unknown>)[key] : undefined;
  }
  return loc;
}

const quoted = (values: unknown[]): string => {
  const shown = values.map((v) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v)));
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
};

function typeNames(error: ErrorObject): string[] {
  const type = error.params['type'] as string | string[];
  return Array.isArray(type) ? type : type.split(',');
}

function describe(error: ErrorObject, value: unknown): ValidationIssue {
  const loc = locOf(error.instancePath, value);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { loc: [...loc, String(p['missingProperty'])], msg: 'Field required', type: 'missing' };
    case 'type':
      return typeIssue(loc, typeNames(error));
    case 'enum':
      return { loc, msg: `Input should be ${quoted(p['allowedValues'] as unknown[])}`, type: 'enum' };
    case 'const':
      return { loc, msg: `Input should be ${quoted([p['allowedValue']])}`, type: 'literal_error' };
    case 'format': {
      const word = FORMAT_WORDS[String(p['format'])];
      return word ? { loc, msg: `Input should be ${word.what}`, type: word.type } : { loc, msg: `Input should match format ${String(p['format'])}`, type: 'format' };
    }
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum': {
      const word = BOUND_WORDS[error.keyword] as { type: string; what: string };
      return { loc, msg: `Input should be ${word.what} ${String(p['limit'])}`, type: word.type };
    }
    case 'minLength':
      return { loc, msg: `String should have at least ${String(p['limit'])} character${p['limit'] === 1 ? '' : 's'}`, type: 'string_too_short' };
    case 'maxLength':
      return { loc, msg: `String should have at most ${String(p['limit'])} character${p['limit'] === 1 ? '' : 's'}`, type: 'string_too_long' };
    case 'pattern':
      return { loc, msg: `String should match pattern '${String(p['pattern'])}'`, type: 'string_pattern_mismatch' };
    case 'minItems':
      return { loc, msg: `List should have at least ${String(p['limit'])} item${p['limit'] === 1 ? '' : 's'}`, type: 'too_short' };
    case 'maxItems':
      return { loc, msg: `List should have at most ${String(p['limit'])} item${p['limit'] === 1 ? '' : 's'}`, type: 'too_long' };
    case 'additionalProperties':
      return { loc: [...loc, String(p['additionalProperty'])], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' };
    case 'not': {
      // A `not` rule carries its own wording in its description (see EnvVar).
      const description = (error.schema as { description?: unknown } | undefined)?.description;
      return { loc, msg: typeof description === 'string' ? description : 'Input is not allowed here', type: 'value_error' };
    }
    default:
      return { loc, msg: error.message ?? `Input fails the ${error.keyword} rule`, type: error.keyword };
  }
}

function typeIssue(loc: Loc, types: string[]): ValidationIssue {
  const named = types.filter((t) => t !== 'null');
  const words = (named.length > 0 ? named : types).map((t) => TYPE_WORDS[t] ?? { type: `${t}_type`, what: `a valid ${t}` });
  return { loc, msg: `Input should be ${words.map((w) => w.what).join(' or ')}`, type: words[0]?.type ?? 'type_error' };
}

interface Pending {
  path: string;
  /** Set when the issue says only that the value at `path` has the wrong type. */
  types?: string[];
  issue: ValidationIssue;
}

const within = (path: string, parent: string) => path === parent || path.startsWith(`${parent}/`);

/**
 * Ajv reports every branch of an `anyOf` before the `anyOf` itself, all at or under its path.
 * If a branch got past the type check, its deeper issues are the answer; if none did, one issue
 * names the types that would have done.
 */
function collapseAnyOf(pending: Pending[], error: ErrorObject, value: unknown): void {
  const branches: Pending[] = [];
  while (pending.length > 0 && within((pending.at(-1) as Pending).path, error.instancePath)) branches.push(pending.pop() as Pending);
  branches.reverse();
  const applying = branches.filter((b) => !(b.types && b.path === error.instancePath));
  if (applying.length > 0) {
    // One at a time: spreading a huge list into push() overflows the stack.
    for (const branch of applying) pending.push(branch);
    return;
  }
  const types = branches.flatMap((b) => b.types ?? []);
  pending.push({ path: error.instancePath, types, issue: typeIssue(locOf(error.instancePath, value), types) });
}

/** Most issues one answer lists; the rest are counted in one closing issue. */
export const MAX_ISSUES = 100;

/**
 * The issues of Ajv's errors, in linear time: at most MAX_ISSUES of them, and when there are
 * more, a last issue (loc []) that says how many were left out.
 */
export function issuesOf(errors: ErrorObject[], value: unknown): ValidationIssue[] {
  const pending: Pending[] = [];
  for (const error of errors) {
    if (error.keyword === 'anyOf') {
      collapseAnyOf(pending, error, value);
    } else {
      pending.push({
        path: error.instancePath,
        ...(error.keyword === 'type' && { types: typeNames(error) }),
        issue: describe(error, value),
      });
    }
  }
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  let omitted = 0;
  for (const { issue } of pending) {
    const key = JSON.stringify(issue);
    if (seen.has(key)) continue;
    seen.add(key);
    if (issues.length < MAX_ISSUES) issues.push(issue);
    else omitted += 1;
  }
  if (omitted > 0) issues.push({ loc: [], msg: `${omitted} more problem${omitted === 1 ? '' : 's'} not listed; fix the ones above and send again`, type: 'too_many_errors' });
  return issues;
}
