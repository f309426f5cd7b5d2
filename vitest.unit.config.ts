import { defineConfig } from 'vitest/config';

// `npm run test:unit`: the tests that start no server and no database (the schemas, generators,
// SSE reader and checks, the harness's own logic, report renderers and the selftest's measures),
// without the global setup that starts PostgreSQL and a shared reference. The loop to run while
// changing code; `npm test` runs these and everything else.
export default defineConfig({
  test: {
    include: [
      'test/schemas/**/*.test.ts',
      'test/generators/**/*.test.ts',
      'test/sse/**/*.test.ts',
      'test/harness/**/*.test.ts',
      'test/catalogue/**/*.test.ts',
      'test/package/**/*.test.ts',
      'test/selftest/measures.test.ts',
      'test/selftest/coverage.test.ts',
      'test/report/renderers.test.ts',
      'test/contracts/reliance.test.ts',
      'test/contracts/sse-body-pattern.test.ts',
    ],
    // It checks setup mistakes against a started reference.
    exclude: ['test/harness/preflight.test.ts'],
    env: { PACT_DO_NOT_TRACK: 'true' },
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    reporters: ['default'],
  },
});
