import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The full selftest takes most of `npm test`'s time, so it starts first and the other files share
 * the second worker beside it. vitest's own order puts larger files first when it has no timings
 * cached, as on a fresh clone, and there the small selftest.test.ts started minutes late.
 */
class SelftestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (file: TestSpecification) => file.moduleId.endsWith('/test/selftest/selftest.test.ts');
    return [...sorted.filter(first), ...sorted.filter((file) => !first(file))];
  }
}

// The project's own tests (`npm test`). Conformance suites (`suites/**/*.suite.ts`) are not
// collected here: `apc certify` runs them against a target with its own vitest configuration.
// Each contracts/*.test.ts runs its consumer tests (which write the pact) before verifying it.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'contracts/**/*.test.ts'],
    env: { PACT_DO_NOT_TRACK: 'true' },
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: SelftestFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
