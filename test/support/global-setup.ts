// Once per test run: a PostgreSQL server for the tests that use one, and the shared reference
// implementation (shared-reference.ts; APC_REFERENCE=process|container). APC_TEST_DATABASE_URL
// names an existing server (a superuser connection string); otherwise a throwaway server is
// started here and stopped in teardown. Tests read them with `inject('databaseUrl')` and
// `sharedReference()`. The consumer tests of contracts/ write their pacts to a temporary folder
// (`inject('pactDir')`), removed in teardown: `npm test` leaves nothing in the checkout.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startThrowawayServer } from './postgres.ts';
import { startSharedReference } from './shared-reference.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const configured = process.env.APC_TEST_DATABASE_URL;
  const server = configured ? undefined : await startThrowawayServer();
  project.provide('databaseUrl', configured ?? server!.adminUrl);
  const pactDir = mkdtempSync(join(tmpdir(), 'apc-test-pacts-'));
  project.provide('pactDir', pactDir);
  let shared;
  try {
    shared = await startSharedReference(process.env);
  } catch (error) {
    await server?.stop();
    rmSync(pactDir, { recursive: true, force: true });
    throw error;
  }
  project.provide('reference', shared.reference);
  return async () => {
    await shared.close();
    await server?.stop();
    rmSync(pactDir, { recursive: true, force: true });
  };
}
