// Attribution: which rule a refusal or an answer breaks, wherever a test meets it. The mapping is
// data (requirements/attribution.yaml), read and checked with the catalogue: every id must be one
// of the catalogue's, every pattern must compile, every enum must be one the harness knows. A
// check or step that fails on a matching refusal names the mapped rule (conformance/check.ts); a
// value outside its enum fails its rule in whichever test it is seen (conformance/requirement.ts).
import { REVISION_STATUSES } from '../schemas/revision-status.ts';
import type { Exchange } from './http/exchange.ts';
import { UsageError } from './usage-error.ts';

export const ATTRIBUTION_FILE = 'attribution.yaml';

/** The enums a `values:` entry may name. */
const ENUMS: Record<string, readonly string[]> = { 'revision-status': REVISION_STATUSES };

/** The kinds a `refusals:` entry's body field may have. */
const KINDS = { string: (v: unknown) => typeof v === 'string', list: (v: unknown) => Array.isArray(v) } as const;

/**
 * What a `refusals:` entry's body field must hold: a kind (`string`, `list`), `=value` (that exact
 * string) or `~pattern` (a string the regular expression matches). Creates of one source kind are
 * told apart by value, a tag's create by its ref's pattern.
 */
function bodyTest(spec: string): ((v: unknown) => boolean) | undefined {
  if (spec in KINDS) return KINDS[spec as keyof typeof KINDS];
  if (spec.startsWith('=')) return (v) => v === spec.slice(1);
  if (spec.startsWith('~')) {
    const pattern = new RegExp(spec.slice(1));
    return (v) => typeof v === 'string' && pattern.test(v);
  }
  return undefined;
}

/** A body field by its dotted path (`source_revision_config.repo_ref`). */
function fieldAt(body: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined), body);
}

interface Shape {
  requirement: string;
  what: string;
  method: string;
  path: RegExp;
}

export interface RefusalRule extends Shape {
  /** The answers that refuse the request's form (400, 422): not a 404, which says something else is missing. */
  statuses: number[];
  body: Record<string, (value: unknown) => boolean>;
  /** When set, the entry moves only failures that name one of these rules (the generic rule a step relied on). */
  insteadOf?: string[];
}

export interface ValueRule extends Shape {
  /** `status`, or `resources[].status` for each item of a list. */
  field: string;
  allowed: readonly string[];
}

export interface Attribution {
  refusals: RefusalRule[];
  values: ValueRule[];
}

/** The rule a matching answer breaks, and what it was, in a sentence. */
export interface Attributed {
  requirement: string;
  what: string;
  /** For a value: the value outside its enum. */
  value?: unknown;
}

/** A mistake in the attribution file: a usage problem, as one of the catalogue's. */
export class AttributionError extends UsageError {}

function bad(where: string, expected: string, seen: unknown): never {
  throw new AttributionError(`${ATTRIBUTION_FILE}: ${where}: expected ${expected}, found ${JSON.stringify(seen)}`);
}

function shapeOf(raw: Record<string, unknown>, where: string, known: ReadonlyMap<string, unknown>): Shape {
  const { requirement, what, request } = raw;
  if (typeof requirement !== 'string' || !known.has(requirement)) bad(where, 'a requirement id of the catalogue', requirement);
  if (typeof what !== 'string' || what.length < 10) bad(where, 'what: the refusal or answer, in a sentence', what);
  const match = typeof request === 'string' ? /^(GET|POST|PATCH|PUT|DELETE) (\S+)$/.exec(request) : null;
  if (!match) bad(where, 'request: "METHOD path-pattern"', request);
  let path: RegExp;
  try {
    path = new RegExp(match[2]!);
  } catch {
    bad(where, 'a path pattern that compiles', match[2]);
  }
  return { requirement, what, method: match[1]!, path };
}

function listOf(doc: Record<string, unknown>, key: string): Record<string, unknown>[] {
  const list = doc[key] ?? [];
  if (!Array.isArray(list) || !list.every((e) => typeof e === 'object' && e !== null)) bad(key, 'a list of entries', list);
  return list as Record<string, unknown>[];
}

/** The attribution of a catalogue folder (its file parsed), checked against its requirements; none when the folder has no such file. */
export function readAttribution(parsed: unknown, known: ReadonlyMap<string, unknown>): Attribution {
  if (parsed === undefined) return { refusals: [], values: [] };
  const doc = (parsed ?? {}) as Record<string, unknown>;
  const refusals = listOf(doc, 'refusals').map((raw, i): RefusalRule => {
    const where = `refusals entry ${i + 1}`;
    const body = raw.body;
    if (typeof body !== 'object' || body === null || Object.keys(body).length === 0) bad(where, 'body: a field and its kind', body);
    const tests: RefusalRule['body'] = {};
    for (const [field, spec] of Object.entries(body)) {
      const test = typeof spec === 'string' ? bodyTest(spec) : undefined;
      if (!test) bad(`${where}, body.${field}`, `${Object.keys(KINDS).join(' or ')}, =value or ~pattern`, spec);
      tests[field] = test;
    }
    const statuses = raw.statuses;
    if (!Array.isArray(statuses) || statuses.length === 0 || !statuses.every((s) => Number.isInteger(s) && s >= 400 && s < 500))
      bad(where, 'statuses: a list of 4xx statuses', statuses);
    const insteadOf = raw.instead_of;
    if (insteadOf !== undefined && (!Array.isArray(insteadOf) || !insteadOf.every((id) => typeof id === 'string' && known.has(id))))
      bad(where, 'instead_of: a list of requirement ids of the catalogue', insteadOf);
    return { ...shapeOf(raw, where, known), statuses: statuses as number[], body: tests, ...(insteadOf ? { insteadOf: insteadOf as string[] } : {}) };
  });
  const values = listOf(doc, 'values').map((raw, i): ValueRule => {
    const where = `values entry ${i + 1}`;
    if (typeof raw.field !== 'string' || !/^(\w+\[\]\.)?\w+$/.test(raw.field)) bad(where, 'field: a name, or list[].name', raw.field);
    const allowed = typeof raw.enum === 'string' ? ENUMS[raw.enum] : undefined;
    if (!allowed) bad(where, `enum: one of ${Object.keys(ENUMS).join(', ')}`, raw.enum);
    return { ...shapeOf(raw, where, known), field: raw.field, allowed };
  });
  return { refusals, values };
}

function sameShape(rule: Shape, exchange: Exchange): boolean {
  return exchange.request.method === rule.method && rule.path.test(new URL(exchange.request.url).pathname);
}

function bodyOf(exchange: Exchange): Record<string, unknown> | undefined {
  try {
    const json: unknown = JSON.parse(exchange.request.body ?? '');
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The rule a refusal of this request's form breaks, when the mapping names one. */
export function refusalOf(attribution: Attribution, exchange: Exchange, relied?: string): Attributed | undefined {
  const status = exchange.response?.status;
  const body = status === undefined ? undefined : bodyOf(exchange);
  if (!body) return undefined;
  const rule = attribution.refusals.find(
    (r) => (!r.insteadOf || (relied !== undefined && r.insteadOf.includes(relied))) && r.statuses.includes(status!) && sameShape(r, exchange) && Object.entries(r.body).every(([field, test]) => test(fieldAt(body, field))),
  );
  return rule && { requirement: rule.requirement, what: rule.what };
}

function fieldValues(json: unknown, field: string): unknown[] {
  const at = (value: unknown, key: string) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined);
  const [list, name] = field.includes('[].') ? field.split('[].') : [undefined, field];
  if (list === undefined) return [at(json, name!)];
  const items = at(json, list);
  return Array.isArray(items) ? items.map((item) => at(item, name!)) : [];
}

/** Each value outside its enum in this answer (a 2xx one), with the rule it breaks. */
export function valuesOutside(attribution: Attribution, exchange: Exchange): Attributed[] {
  const status = exchange.response?.status;
  if (status === undefined || status < 200 || status >= 300) return [];
  return attribution.values
    .filter((rule) => sameShape(rule, exchange))
    .flatMap((rule) =>
      fieldValues(exchange.response?.json, rule.field)
        // A missing or null field is other rules' to judge (the schema's); only a value outside the list is this one's.
        .filter((v) => v !== undefined && v !== null && !(typeof v === 'string' && rule.allowed.includes(v)))
        .map((value) => ({ requirement: rule.requirement, what: rule.what, value })),
    );
}
