import { defineConfig } from 'vitest/config';
import { LongFilesFirst } from './test/support/long-files-first.ts';

// The project's own tests (`npm test`). Conformance suites (`suites/**/*.suite.ts`) are not
// collected here: `apc certify` runs them against a target with its own vitest configuration.
// Each contracts/*.test.ts runs its consumer tests (which write the pact) before verifying it.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'contracts/**/*.test.ts'],
    env: { PACT_DO_NOT_TRACK: 'true' },
    // The LangGraph JS server's is started only when a file asks for it (test/langgraph-js/shared-server.ts).
    globalSetup: ['test/support/global-setup.ts', 'test/langgraph-js/global-setup.ts'],
    pool: 'forks',
    // Three workers on two cores: most files wait (on servers, deadlines, child processes), and with
    // two the selftest's worker left one for the rest (376 s against 313 s, load 3 to 6).
    maxWorkers: 3,
    // Files share a worker's modules instead of importing the harness, schemas and fast-check again
    // for each (imports took 73 s of the workers' time, 16 s shared): 561 s of CPU against 607 s.
    // A file that fakes timers or changes the working directory puts them back before it ends.
    isolate: false,
    // The selftest first, then the longest files (test/support/long-files-first.ts says why).
    sequence: { sequencer: LongFilesFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
