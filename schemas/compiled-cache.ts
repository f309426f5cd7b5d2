// The API schemas' validators as Ajv's generated code, kept on disk between processes. Every
// process that validates (the certifying one with the reference, each suite worker, each test
// file's) compiled the schemas it met again, a sixth of a suite worker's CPU in apc selftest's
// profile; loading the code that compiling generates costs a few milliseconds. The file is named
// by a hash of everything the code depends on (Ajv's version, its options, every schema), so a
// changed schema makes a new one; where the install is not writable, schemas compile as before.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';

const CACHE = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.cache', 'apc-schemas');
/** The generated code requires Ajv's runtime helpers (string length, deep equality, URI parsing). */
const requireFromHere = createRequire(import.meta.url);
const AJV_VERSION = (requireFromHere('ajv/package.json') as { version: string }).version;

/** The cache file's name for these options and schemas. */
export function cacheKey(options: unknown, schemas: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify({ ajv: AJV_VERSION, options, schemas })).digest('hex').slice(0, 24);
}

/** Where the code of `key` is kept. */
export const cacheFile = (key: string): string => join(CACHE, `${key}.cjs`);

function load(file: string, formats: Formats): Record<string, ValidateFunction> | undefined {
  let code: string;
  try {
    code = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const module = { exports: {} as Record<string, ValidateFunction> };
  try {
    // The code is CommonJS that Ajv generated from our own schemas; `formats` is the name the
    // loader's code.formats option gave the formats it refers to.
    new Function('require', 'module', 'exports', 'formats', code)(requireFromHere, module, module.exports, formats);
  } catch {
    // A file that does not load (damaged on disk) is written again.
    return undefined;
  }
  return module.exports;
}

/** The formats the generated code refers to as `formats`, by name (a loader's `formats`). */
type Formats = Ajv2020['formats'];

/**
 * The validators of `ids` (schema name to `$id`), from the cache file when there is one; else
 * compiled by the loader `compiler` makes (whose options must include `code.source` and
 * `code.formats`, and whose formats are `formats`) and written for the next process. Undefined
 * where no file can be written: the caller compiles each schema when first used.
 */
export function cachedValidators(key: string, formats: Formats, ids: Record<string, string>, compiler: () => Ajv2020): Record<string, ValidateFunction> | undefined {
  const file = cacheFile(key);
  const cached = load(file, formats);
  if (cached) return cached;
  const ajv = compiler();
  const staging = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    mkdirSync(CACHE, { recursive: true });
    // Loaded only to write the file: reading it back needs none of Ajv's compiler.
    const standaloneCode = requireFromHere('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js');
    writeFileSync(staging, standaloneCode.default(ajv, ids));
    // Processes that start together may each write it; the rename makes every read see a whole file.
    renameSync(staging, file);
  } catch {
    rmSync(staging, { force: true });
    return undefined;
  }
  pruneOlder(file);
  return Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, ajv.getSchema(id)!]));
}

/** Files of earlier schemas (a day old, so no process still starting from one): each is most of a megabyte. */
function pruneOlder(keep: string): void {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  try {
    for (const name of readdirSync(CACHE)) {
      const path = join(CACHE, name);
      if (path !== keep && statSync(path).mtimeMs < dayAgo) rmSync(path, { force: true });
    }
  } catch {
    // Another process pruned the same file first: nothing to do.
  }
}
