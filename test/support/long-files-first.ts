// The order in which `npm test` starts its files. The full selftest is the longest file, so it
// starts first and the other files share the other workers beside it. Then the files that take
// longest, so that none of them starts last and runs alone while the other workers have finished.
// vitest orders by the durations it cached in the last run, but a fresh clone (CI, the bench's
// clones) has none, and there vitest puts larger files first: the 43-s certify-platform-like test
// (1.7 kB) and the 36-s slow-posts test (3 kB) came among the last to start.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files after the selftest, longest first: their durations in a fresh clone's
 * `npm test` (2026-11-29, load 5.7, `npm run bench -- --only feedback` prints them), 25 s and more.
 */
export const LONG_FILES = [
  'test/selftest/selftest.test.ts',
  'test/langgraph-js/certify-langgraph.test.ts', // 71 s
  'test/reference-impl/hostile-input/corpus.test.ts', // 46 s
  'test/harness/budget.test.ts', // 43 s
  'test/cli/certify-platform-like.test.ts', // 43 s
  'test/report/certify-report.test.ts', // 40 s
  'test/cli/plan-waits-bound.test.ts', // 40 s
  'test/cli/slow-posts.test.ts', // 36 s
  'test/ci/action.test.ts', // 35 s
  'test/cli/hostile-target.test.ts', // 31 s
  'test/cli/selftest-interrupt.test.ts', // 28 s
  'test/self-cert/control-plane/real-platform-behaviours.test.ts', // 28 s
  'test/cli/stuck-revisions.test.ts', // 27 s
];

/** The files of LONG_FILES in its order, then the others in vitest's own order. */
export function longFilesFirst<T>(files: readonly T[], pathOf: (file: T) => string): T[] {
  const rank = (file: T) => {
    const i = LONG_FILES.findIndex((long) => pathOf(file).endsWith(`/${long}`));
    return i < 0 ? LONG_FILES.length : i;
  };
  // Array.prototype.sort is stable: the other files keep vitest's order.
  return [...files].sort((a, b) => rank(a) - rank(b));
}

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return longFilesFirst(await super.sort(files), (file) => file.moduleId);
  }
}
