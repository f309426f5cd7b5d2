// The catalogue's YAML, parsed once per content: every run reads requirements/*.yaml at its start,
// and parsing them was a tenth of the CPU of a one-requirement certification, where reading the
// same values back as JSON costs a few milliseconds. The parsed value of a file is kept in
// node_modules/.cache/apc-yaml/, named by the file's name and the hash of its text, so an edited
// file is parsed again; where the install is read-only, every run parses.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ROOT } from './root.ts';
import { yaml } from './yaml.ts';

export const YAML_CACHE = join(ROOT, 'node_modules', '.cache', 'apc-yaml');
// Part of the hash: a change to how the text is read makes new entries.
const FORMAT = '1';

/** `text` (the contents of `file`) parsed as YAML. The catalogue holds only what JSON can keep: maps, lists, strings, numbers. */
export function parseYamlOf(file: string, text: string): unknown {
  const prefix = `${basename(file)}-`;
  const entry = `${prefix}${createHash('sha256').update(`${FORMAT}\0`).update(text).digest('hex').slice(0, 32)}.json`;
  try {
    return JSON.parse(readFileSync(join(YAML_CACHE, entry), 'utf8')) as unknown;
  } catch {
    // Not parsed yet in this install (or its entry is unreadable): parse and keep it.
  }
  const value = yaml().parse(text) as unknown;
  try {
    mkdirSync(YAML_CACHE, { recursive: true });
    // The entries of earlier versions of the file go: one per file name is kept.
    for (const old of readdirSync(YAML_CACHE)) if (old.startsWith(prefix) && old !== entry) rmSync(join(YAML_CACHE, old), { force: true });
    const staging = join(YAML_CACHE, `.${entry}.${process.pid}`);
    writeFileSync(staging, JSON.stringify(value));
    renameSync(staging, join(YAML_CACHE, entry));
  } catch {
    // A read-only install: the next run parses again.
  }
  return value;
}
