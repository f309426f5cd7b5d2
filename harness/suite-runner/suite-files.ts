// Which suite files a run loads, and the test-name pattern that keeps only its requirements' tests.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InterfaceName } from '../profile/profile.ts';
import { ROOT } from '../root.ts';

export function suiteFiles(interfaces: InterfaceName[]): string[] {
  return interfaces.flatMap((iface) => {
    const dir = join(ROOT, 'suites', iface);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.suite.ts'))
      .sort()
      .map((f) => join(dir, f));
  });
}

/**
 * The suite files that name one of the ids, so a run of a few requirements loads only their
 * files. Suites name the ids they check literally (test/catalogue/coverage.test.ts relies on
 * it too); should an id be found in no suite file (named from a support module, say), every
 * file runs, so a selected requirement is never left out.
 */
export function suiteFilesNaming(files: string[], ids: string[]): string[] {
  const texts = files.map((file) => readFileSync(file, 'utf8'));
  const named = (id: string, text: string) => new RegExp(`['"\`]${escape(id)}['"\`]`).test(text);
  if (!ids.every((id) => texts.some((text) => named(id, text)))) return files;
  return files.filter((_, i) => ids.some((id) => named(id, texts[i]!)));
}

/** The files a run of `ids` on `interfaces` loads. */
export function runFiles(interfaces: InterfaceName[], ids: string[]): string[] {
  return suiteFilesNaming(suiteFiles(interfaces), ids);
}

/** Test titles start with the ids they cover, separated by spaces: a title naming one of `ids`. */
export function titlePattern(ids: string[]): string {
  return `(?:^|\\s)(?:${ids.map(escape).join('|')})(?:\\s|$)`;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
