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
      'test/report/matrix.test.ts',
      'test/ci/ci-docs.test.ts',
      'test/report/switched-on.test.ts',
      'test/contracts/reliance.test.ts',
      'test/contracts/sse-body-pattern.test.ts',
    ],
    // preflight.test.ts checks setup mistakes against a started reference; budget.test.ts
    // certifies the reference (a full control-plane run among them: most of this loop's time when
    // it was here); suite-batches.test.ts certifies two references in a shared vitest run;
    // readme-commands.test.ts runs the README's commands, a certification of the reference among them.
    exclude: ['test/harness/preflight.test.ts', 'test/harness/budget.test.ts', 'test/harness/suite-batches.test.ts', 'test/package/readme-commands.test.ts'],
    env: { PACT_DO_NOT_TRACK: 'true' },
    pool: 'forks',
    maxWorkers: 2,
    // Files share a worker's modules instead of importing schemas, ajv and fast-check again for
    // each of them: half the loop's CPU. None of these files mocks a module or changes global
    // state (their order was shuffled to show it).
    isolate: false,
    testTimeout: 60_000,
    reporters: ['default'],
  },
});
