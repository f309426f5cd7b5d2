// `npm run contracts:consumers`: only the consumer tests of contracts/, which write the pact
// files (no database, no provider verification), for `apc contracts verify` and publishing.
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: resolve(import.meta.dirname, '..'),
  test: {
    include: ['contracts/**/*.test.ts'],
    testNamePattern: '^consumer ',
    env: { PACT_DO_NOT_TRACK: 'true' },
    reporters: ['default'],
  },
});
