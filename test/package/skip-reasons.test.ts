// A test of this project that can be skipped says why in its name, so vitest's list of skipped
// tests explains itself ("4 skipped tests give no reason" was seen): every `skipIf` names its
// reason in parentheses, "(skipped …)" or "(<Something> only: …)". A test that is always skipped
// (`.skip`, `.todo`) checks nothing and has no place here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../support/certify.ts';

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name.startsWith('.')) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? testFiles(path) : name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The text of a skipIf call from its condition to its name's end (a name may follow on the next lines). */
const SKIP_IF = /\b(?:it|test|describe)\.skipIf\(/g;
const REASON = /\((?:skipped\b|[A-Z][A-Za-z]* only:)/;
const ALWAYS_SKIPPED = /\b(?:it|test|describe)\.(?:skip|todo)\(/;

test('every skippable test names its reason, and none is skipped always', () => {
  const files = [...testFiles(join(ROOT, 'test')), ...testFiles(join(ROOT, 'contracts'))];
  const problems: string[] = [];
  let skippable = 0;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const name = relative(ROOT, file);
    if (ALWAYS_SKIPPED.test(text)) problems.push(`${name}: a test that is always skipped`);
    for (const match of text.matchAll(SKIP_IF)) {
      skippable += 1;
      // The call's condition and the name after it: up to the test's function.
      const call = text.slice(match.index, text.indexOf('=>', match.index));
      if (!REASON.test(call)) problems.push(`${name}:${text.slice(0, match.index).split('\n').length}: a skipIf whose name gives no reason`);
    }
  }
  expect(problems).toEqual([]);
  // The ones issue 35 saw, and the LangGraph pact check skipped in .ci/run's container step.
  expect(skippable).toBeGreaterThanOrEqual(5);
});
