// Which tests a failed `npm test` failed: vitest's default reporter ends with a `FAIL` line for
// each (`FAIL  test/x.test.ts > a describe > a test`), coloured unless NO_COLOR is set. Without
// them a failed run in the bench's table said only "(FAILED)", and nobody could tell which test
// to look at, nor whether both commits failed on the same one.
import { stripVTControlCharacters } from 'node:util';

/** At most this many names: a run that failed everywhere is named by its first ones. */
export const MAX_NAMED = 20;

/** The failed tests named in vitest's output, each once, in the order printed (`file > describe > test`). */
export function failedTests(output: string): string[] {
  const named = stripVTControlCharacters(output)
    .split('\n')
    .flatMap((line) => {
      const m = /^\s*FAIL\s+(\S.*?)\s*$/.exec(line);
      return m ? [m[1]!] : [];
    });
  return [...new Set(named)].slice(0, MAX_NAMED);
}
