import { defineConfig } from 'vitest/config';

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
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
