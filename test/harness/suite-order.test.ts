// The order in which a run starts its suite files: the longest declared chain of revision waits
// first (harness/suite-runner/suite-order.ts), so that chain does not wait behind other files.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { expect, test } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { suiteFiles } from '../../harness/suite-runner/suite-files.ts';
import { declaredWaits, LongestWaitsFirst } from '../../harness/suite-runner/suite-order.ts';

test('a test declares its revision waits in a row by its deploy deadline', () => {
  expect(declaredWaits("requirement('X', body, { timeout: 'stream' })")).toBe(0);
  expect(declaredWaits("requirement('X', body, { timeout: 'deploy' })")).toBe(1);
  expect(declaredWaits("{ timeout: 'deploy' } … { timeout: deployTimeout(3) } … { timeout: deployTimeout(2) }")).toBe(3);
});

test('the control-plane file with the longest chain of revision waits starts first, the others keep the order vitest gives them', async () => {
  const files = suiteFiles(['control-plane']);
  const spec = (moduleId: string) =>
    ({ moduleId, project: { name: '', config: { sequence: { groupOrder: 0 }, isolate: false } } }) as unknown as TestSpecification;
  // No timings cached and no sizes known: vitest keeps the order it was given (alphabetical here).
  const ctx = { config: { root: '/' }, cache: { getFileTestResults: () => undefined, getFileStats: () => undefined } } as unknown as Vitest;
  const sorted = (await new LongestWaitsFirst(ctx).sort(files.map(spec))).map((f) => basename(f.moduleId));
  const longest = Math.max(...files.map((f) => declaredWaits(readFileSync(f, 'utf8'))));
  expect(longest).toBeGreaterThan(1);
  expect(sorted[0]).toBe('revision-lifecycle.suite.ts');
  expect(sorted.slice(1)).toEqual(files.map((f) => basename(f)).filter((f) => f !== 'revision-lifecycle.suite.ts'));
});
