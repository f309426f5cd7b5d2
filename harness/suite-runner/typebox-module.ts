// TypeBox as one ES module for the suite workers. Its build is 266 small modules, which each worker
// loaded one by one before its first test (50 to 250 ms at load 10, a tenth of a one-requirement
// certification); as one file it loads in a few milliseconds. The file is made once per TypeBox
// version with esbuild, in node_modules/.cache/apc-typebox/, where the install is writable;
// elsewhere the workers load TypeBox as installed. TypeBox marks its types with global symbols, so
// schemas made by either copy agree.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ROOT } from '../root.ts';

const CACHE = join(ROOT, 'node_modules', '.cache', 'apc-typebox');
const requireHere = createRequire(import.meta.url);

/** The installed TypeBox's version, from the package.json above its entry module. */
function installedVersion(): string | undefined {
  try {
    for (let dir = dirname(requireHere.resolve('@sinclair/typebox')); dir !== dirname(dir); dir = dirname(dir)) {
      const file = join(dir, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === '@sinclair/typebox') return manifest.version;
    }
  } catch {
    // Not resolvable from here: the workers load it as installed.
  }
  return undefined;
}

let alias: { find: RegExp; replacement: string }[] | undefined;
/** The vitest alias that gives the suite workers TypeBox as one module; none where it cannot be made. Found once per process (apc selftest makes many vitest instances). */
export function typeboxAlias(): { find: RegExp; replacement: string }[] {
  if (!alias) {
    const file = typeboxModule();
    alias = file ? [{ find: /^@sinclair\/typebox$/, replacement: file }] : [];
  }
  return alias;
}

/** The path of TypeBox as one ES module, made on first use; undefined where it cannot be made. */
function typeboxModule(): string | undefined {
  const version = installedVersion();
  if (version === undefined) return undefined;
  const file = join(CACHE, `typebox-${version}.mjs`);
  if (existsSync(file)) return file;
  const staging = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    mkdirSync(CACHE, { recursive: true });
    // Loaded only to make the file: esbuild comes with tsx.
    const { buildSync } = requireHere('esbuild') as typeof import('esbuild');
    buildSync({
      stdin: { contents: "export * from '@sinclair/typebox';", resolveDir: ROOT, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outfile: staging,
      logLevel: 'silent',
    });
    // Runs that start together may each make it; the rename makes every reader see a whole file.
    renameSync(staging, file);
    return file;
  } catch {
    rmSync(staging, { force: true });
    return undefined;
  }
}
