// The one schema loader: the registry of every named schema, validation into the spec's
// ValidationError shape, and exports as standalone JSON Schema or OpenAPI components.
import { createRequire } from 'node:module';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type { TSchema } from '@sinclair/typebox';
import { agentServerSchemas } from './agent-server.ts';
import { cachedValidators, cacheKey } from './compiled-cache.ts';
import { controlPlaneSchemas } from './control-plane.ts';
import { isDateTime } from './datetime-format.ts';
import { errorSchemas } from './errors.ts';
import { experimentUploadSchemas } from './experiment-upload.ts';
import { issuesOf, type ValidationIssue } from './issues.ts';
import { refName } from './json-types.ts';

export * from './agent-server.ts';
export * from './control-plane.ts';
export * from './errors.ts';
export * from './experiment-upload.ts';
export type { ValidationIssue } from './issues.ts';

export const schemas = { ...controlPlaneSchemas, ...errorSchemas, ...agentServerSchemas, ...experimentUploadSchemas };
export type SchemaName = keyof typeof schemas;

export const schemaNames = Object.keys(schemas) as SchemaName[];

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export type ValidationResult = { ok: true } | { ok: false; issues: ValidationIssue[] };

type JsonObject = Record<string, unknown>;

/** Every problem (`all`), or only the first (`first`: it stops there, so it costs little on any input). */
export type Mode = 'all' | 'first';

// Ajv's compiler is loaded when a schema is compiled, not on import: a process whose validators
// all come from compiled-cache.ts (a suite worker, the certifying process with the reference)
// never loads it, which saves a tenth of a suite worker's start.
const requireHere = createRequire(import.meta.url);
const ajv2020 = (): typeof import('ajv/dist/2020.js') => requireHere('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');

/** The formats the API schemas use: ajv-formats' uuid (a regular expression) and our date-time. */
const FORMATS = {
  uuid: (requireHere('ajv-formats/dist/formats.js') as typeof import('ajv-formats/dist/formats.js')).fullFormats.uuid as RegExp,
  'date-time': { type: 'string' as const, validate: isDateTime },
};

const loaders = new Map<Mode, Ajv2020>();
const compiled = new Map<string, ValidateFunction>();

/** What the generated code depends on besides the schemas and Ajv's version (compiled-cache.ts's key). */
const OPTIONS = { strict: true, verbose: true, validateSchema: false, optimize: false } as const;

function loader(mode: Mode): Ajv2020 {
  let instance = loaders.get(mode);
  if (!instance) loaders.set(mode, (instance = newLoader(mode)));
  return instance;
}

/** A new loader holding every API schema, none compiled yet (test/schemas/compiled-cache.test.ts compares the cached code with it). */
export function newLoader(mode: Mode): Ajv2020 {
  const { Ajv2020, _ } = ajv2020();
  const instance = new Ajv2020({
    strict: OPTIONS.strict,
    allErrors: mode === 'all',
    verbose: OPTIONS.verbose,
    // Our own schemas, checked against the draft 2020-12 meta-schema by test/schemas/loader.test.ts,
    // not again in every process that validates (the certifying one with the reference, each suite
    // worker); and no optimising pass over the generated code, which checks the same without it.
    // Together a third of the CPU of compiling, paid at every run's start. The generated code is
    // kept (source) for compiled-cache.ts, with the formats it refers to named `formats`.
    validateSchema: OPTIONS.validateSchema,
    code: { optimize: OPTIONS.optimize, source: true, formats: _`formats` },
    // Strict mode warnings are schema bugs: fail loudly instead of logging.
    logger: {
      log: () => undefined,
      warn: (...args: unknown[]) => {
        throw new Error(`JSON Schema strict mode warning: ${args.join(' ')}. Fix the schema in schemas/.`);
      },
      error: (...args: unknown[]) => {
        throw new Error(`JSON Schema error: ${args.join(' ')}`);
      },
    },
  });
  for (const [name, format] of Object.entries(FORMATS)) instance.addFormat(name, format);
  for (const schema of Object.values(schemas)) instance.addSchema(plain(schema));
  return instance;
}

let cachedAll: { validators: Record<string, ValidateFunction> | undefined } | undefined;

/** Every schema's validator that lists every problem, from compiled-cache.ts; undefined where none can be kept. */
function validatorsFromCache(): Record<string, ValidateFunction> | undefined {
  if (!cachedAll) {
    // The uuid format is a regular expression from ajv-formats, written into the generated code.
    const formatsUsed = Object.fromEntries(Object.entries(FORMATS).map(([name, format]) => [name, format instanceof RegExp ? String(format) : typeof format]));
    const key = cacheKey({ ...OPTIONS, allErrors: true, formats: formatsUsed }, Object.fromEntries(schemaNames.map((name) => [name, plain(schemas[name])])));
    const ids = Object.fromEntries(schemaNames.map((name) => [name, (schemas[name] as TSchema).$id as string]));
    cachedAll = { validators: cachedValidators(key, FORMATS, ids, () => loader('all')) };
  }
  return cachedAll.validators;
}

/** The compiled validator of a schema, compiled on first use. */
function validator(name: SchemaName, mode: Mode): ValidateFunction {
  let fn = compiled.get(`${mode}:${name}`);
  if (!fn) {
    const schema = schemas[name] as TSchema | undefined;
    if (!schema) throw new Error(`Unknown schema ${JSON.stringify(name)}; expected one of ${schemaNames.join(', ')}.`);
    fn = (mode === 'all' ? validatorsFromCache()?.[name] : undefined) ?? loader(mode).getSchema(schema.$id as string);
    if (!fn) throw new Error(`Schema ${name} was not registered with the loader.`);
    compiled.set(`${mode}:${name}`, fn);
  }
  return fn;
}

const compiledOther = new WeakMap<object, ValidateFunction>();

/**
 * A validator for a schema outside the API registry (the harness's own files: the compliance
 * report, the target profile), compiled once by the same strict loader.
 */
export function compileSchema(schema: TSchema): ValidateFunction {
  let fn = compiledOther.get(schema);
  if (!fn) {
    fn = loader('all').compile(plain(schema));
    compiledOther.set(schema, fn);
  }
  return fn;
}

let lenient: Ajv2020 | undefined;

/**
 * A validator for a schema someone else wrote (a graph's context schema): compiled leniently, as
 * unknown keywords or formats in it are its author's business, not a harness bug.
 */
export function compileForeignSchema(schema: object): ValidateFunction {
  lenient ??= new (ajv2020().Ajv2020)({ allErrors: true, strict: false, validateSchema: false });
  return lenient.compile(schema);
}

/**
 * Values (of any nesting) up to which every problem is looked for. Beyond it, only the first
 * problem is reported. Ajv appends the problems found under a `$ref` by copying the list so
 * far, so looking for all of them costs time in the square of their number: bounded by this
 * limit, and the single-problem pass is linear, validation stays linear in the input.
 */
export const MAX_VALUES_FULLY_CHECKED = 2_000;

/**
 * True when `value` holds more than `limit` values (counted without recursion). Every value is
 * counted once it is pending, so it stops as soon as that many are seen: it runs before every
 * validation, also of a huge body.
 */
function holdsMoreThan(value: unknown, limit: number): boolean {
  const pending: unknown[] = [value];
  let seen = 1;
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== 'object') continue;
    const children = Array.isArray(next) ? next : Object.values(next);
    seen += children.length;
    if (seen > limit) return true;
    for (const child of children) pending.push(child);
  }
  return false;
}

/**
 * Checks `value` against the named schema; issues follow the spec's ValidationError shape. Up to
 * the limit, one pass lists every problem (on a valid value it does what the first-problem pass
 * does); beyond it, only the first-problem pass runs. So a process compiles one validator per
 * schema, not two: compiling both was a sixth of a suite worker's CPU.
 */
export function validate(name: SchemaName, value: unknown): ValidationResult {
  if (!holdsMoreThan(value, MAX_VALUES_FULLY_CHECKED)) {
    const all = validator(name, 'all');
    return all(value) ? { ok: true } : { ok: false, issues: issuesOf(all.errors ?? [], value) };
  }
  const first = validator(name, 'first');
  if (first(value)) return { ok: true };
  const more = { loc: [], msg: `Only the first problem is listed for a value of more than ${MAX_VALUES_FULLY_CHECKED} items; fix it and send again`, type: 'too_many_errors' };
  return { ok: false, issues: [...issuesOf(first.errors ?? [], value), more] };
}

/** A deep copy without TypeBox's symbol-keyed markers: plain JSON. */
function plain(schema: unknown): JsonObject {
  return JSON.parse(JSON.stringify(schema)) as JsonObject;
}

/** Applies `visit` to every object inside `node` (depth first), rebuilding it. */
function mapObjects(node: unknown, visit: (object: JsonObject) => JsonObject): unknown {
  if (Array.isArray(node)) return node.map((item) => mapObjects(item, visit));
  if (node === null || typeof node !== 'object') return node;
  const mapped = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, mapObjects(value, visit)]));
  return visit(mapped);
}

/** Names of the schemas `name` refers to, directly or through others. */
function referencedNames(name: SchemaName): Set<SchemaName> {
  const found = new Set<SchemaName>();
  const visit = (from: SchemaName) =>
    mapObjects(plain(schemas[from]), (object) => {
      const target = typeof object['$ref'] === 'string' ? refName(object['$ref']) : undefined;
      if (target !== undefined && target in schemas && target !== name && !found.has(target as SchemaName)) {
        found.add(target as SchemaName);
        visit(target as SchemaName);
      }
      return object;
    });
  visit(name);
  return found;
}

/**
 * The named schema as one standalone JSON Schema document: `$schema`, `$id`, and every schema it
 * refers to bundled under `$defs` (each keeps its `$id`, so the URN references resolve inside).
 */
export function toJsonSchema(name: SchemaName): JsonObject {
  const defs = [...referencedNames(name)].sort().map((dep) => [dep, plain(schemas[dep])] as const);
  return {
    $schema: JSON_SCHEMA_DIALECT,
    ...plain(schemas[name]),
    ...(defs.length > 0 && { $defs: Object.fromEntries(defs) }),
  };
}

/** Every schema as OpenAPI 3.1 components: references point at `#/components/schemas/<Name>`. */
export function openApiComponents(): { schemas: Record<string, JsonObject> } {
  const rewrite = (object: JsonObject): JsonObject => {
    const { $id: _id, ...rest } = object;
    const target = typeof rest['$ref'] === 'string' ? refName(rest['$ref']) : undefined;
    return target === undefined ? rest : { ...rest, $ref: `#/components/schemas/${target}` };
  };
  const entries = schemaNames.map((name) => [name, mapObjects(plain(schemas[name]), rewrite) as JsonObject] as const);
  return { schemas: Object.fromEntries(entries) };
}
