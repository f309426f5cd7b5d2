import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The full selftest is `npm test`'s longest file, so it starts first and the other files share
 * the two other workers beside it. vitest's own order puts larger files first when it has no
 * timings cached, as on a fresh clone, and there the small selftest.test.ts started minutes late.
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
    // Three workers on two cores: most files wait (on servers, deadlines, child processes), and with
    // two the selftest's worker left one for the rest (376 s against 313 s, load 3 to 6).
    maxWorkers: 3,
    // Files share a worker's modules instead of importing the harness, schemas and fast-check again
    // for each (imports took 73 s of the workers' time, 16 s shared): 561 s of CPU against 607 s.
    // A file that fakes timers or changes the working directory puts them back before it ends.
    isolate: false,
    sequence: { sequencer: SelftestFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
