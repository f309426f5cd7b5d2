// npm test starts the selftest, then its longest files, then the rest in vitest's order: on a
// fresh clone, with no durations cached, vitest alone started the long files late (smallest last).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../../harness/root.ts';
import { LONG_FILES, longFilesFirst } from '../support/long-files-first.ts';

test('the selftest, then the long files in their order, then the others as vitest ordered them', () => {
  const given = ['/r/test/a.test.ts', `/r/${LONG_FILES[2]}`, '/r/test/b.test.ts', `/r/${LONG_FILES[0]}`, `/r/${LONG_FILES[1]}`, '/r/test/c.test.ts'];
  expect(longFilesFirst(given, (f) => f)).toEqual([
    `/r/${LONG_FILES[0]}`,
    `/r/${LONG_FILES[1]}`,
    `/r/${LONG_FILES[2]}`,
    '/r/test/a.test.ts',
    '/r/test/b.test.ts',
    '/r/test/c.test.ts',
  ]);
  expect(LONG_FILES[0]).toBe('test/selftest/selftest.test.ts');
  // A path that only ends like a long file's name is not it.
  expect(longFilesFirst(['/r/test/x.test.ts', `/r/other-${LONG_FILES[1]}`], (f) => f)).toEqual(['/r/test/x.test.ts', `/r/other-${LONG_FILES[1]}`]);
});

test('each long file exists, so the list cannot go stale after a move', () => {
  expect(LONG_FILES.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
});
