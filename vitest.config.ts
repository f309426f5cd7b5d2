import { defineConfig } from 'vitest/config';

// The project's own tests (`npm test`). Conformance suites (`suites/**/*.suite.ts`) are not
// collected here: `apc certify` runs them against a target with its own vitest configuration.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
