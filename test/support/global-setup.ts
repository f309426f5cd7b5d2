// Once per test run: a PostgreSQL server for the tests that use one. APC_TEST_DATABASE_URL names
// an existing server (a superuser connection string); otherwise a throwaway server is started here
// and stopped in teardown. Tests read the URL with `inject('databaseUrl')`.
import type { TestProject } from 'vitest/node';
import { startThrowawayServer } from './postgres.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const configured = process.env.APC_TEST_DATABASE_URL;
  if (configured) {
    project.provide('databaseUrl', configured);
    return async () => undefined;
  }
  const server = await startThrowawayServer();
  project.provide('databaseUrl', server.adminUrl);
  return () => server.stop();
}
