// The CLI's TypeScript sources bundled to JavaScript with esbuild (which tsx brings), once per
// change of the sources: starting from plain JavaScript saves the second that transforming the
// sources on every start costs. The bundle lives in node_modules/.cache/apc-cli/<hash>/ and is
// used while the hash of the files it was built from still matches. `npm ci` builds it (the
// `prepare` script runs this file); otherwise the first run does.
//
// Conformance suites are not in the bundle: vitest loads them in its workers from the sources.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = 'harness/cli/main.ts';
const CACHE = join(ROOT, 'node_modules', '.cache', 'apc-cli');
const MANIFEST = join(CACHE, 'manifest.json');
// Part of the hash: a change to how the bundle is built makes a new one.
const FORMAT = '2';
// Packages bundled with the sources rather than loaded from node_modules: TypeBox's 266 small ES
// modules took the certifying process 50 to 250 ms to load (a tenth of a one-requirement run),
// bundled they take 5. Its types carry their kind in global symbols, so values it makes agree
// with any other copy of it.
const BUNDLED_PACKAGES = /^@sinclair\/typebox(\/|$)/;

function hashOf(inputs) {
  const hash = createHash('sha256').update(`${FORMAT}\0${ROOT}\0`);
  for (const input of inputs) hash.update(`${input}\0`).update(readFileSync(join(ROOT, input))).update('\0');
  return hash.digest('hex').slice(0, 16);
}

function cachedEntry() {
  try {
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
    if (hashOf(manifest.inputs) === manifest.hash) return join(CACHE, manifest.hash, 'main.mjs');
  } catch {
    // No bundle yet, or a source it was built from is gone: build again.
  }
  return undefined;
}

/** Bundles of earlier sources (a day old, so no run still loading from one). */
function pruneOldBundles(keep) {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (/^[0-9a-f]{16}$/.test(name) && name !== keep && statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
  }
}

/** Every package stays in node_modules (loaded from there at run time) except BUNDLED_PACKAGES. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED_PACKAGES.test(args.path) ? undefined : { path: args.path, external: true }));
  },
};

/** Modules see their own file's URL in `import.meta.url`, as they do when run from the sources. */
const sourceUrls = {
  name: 'source-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/** The package.json of the installed package that holds `input`, or undefined for a source of this project. */
function packageJsonOf(input) {
  const path = join(ROOT, input).split(sep).join('/');
  const at = path.lastIndexOf('/node_modules/');
  if (at === -1) return undefined;
  const [first, second] = path.slice(at + '/node_modules/'.length).split('/');
  const name = first.startsWith('@') ? `${first}/${second}` : first;
  return relative(ROOT, join(path.slice(0, at), 'node_modules', name, 'package.json'));
}

/**
 * The files whose contents name the bundle: the sources, and of each bundled package only its
 * package.json (its version), so a start reads a few hundred files fewer.
 */
function hashedInputs(inputs) {
  return [...new Set(inputs.map((input) => packageJsonOf(input) ?? input))].sort();
}

async function build() {
  const { build: esbuild } = await import('esbuild');
  mkdirSync(CACHE, { recursive: true });
  const staging = join(CACHE, `.build-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const result = await esbuild({
      absWorkingDir: ROOT,
      entryPoints: { main: ENTRY },
      outdir: staging,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      metafile: true,
      logLevel: 'silent',
      plugins: [externalPackages, sourceUrls],
    });
    const inputs = hashedInputs(Object.keys(result.metafile.inputs));
    const hash = hashOf(inputs);
    try {
      renameSync(staging, join(CACHE, hash));
    } catch {
      // Another run built the same bundle at the same time: use theirs.
    }
    const manifestTmp = `${staging}.json`;
    writeFileSync(manifestTmp, JSON.stringify({ hash, inputs }));
    renameSync(manifestTmp, MANIFEST);
    pruneOldBundles(hash);
    return join(CACHE, hash, 'main.mjs');
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The URL of the CLI's entry module: the bundle, or the TypeScript source when no bundle can be written. */
export async function cliEntry() {
  let entry = cachedEntry();
  if (entry === undefined) {
    try {
      entry = await build();
    } catch {
      // A read-only install, say: run the sources through tsx instead.
      (await import('tsx/esm/api')).register();
      return pathToFileURL(join(ROOT, ENTRY)).href;
    }
  }
  return pathToFileURL(entry).href;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await cliEntry();
