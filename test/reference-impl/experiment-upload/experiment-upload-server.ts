// Starts the experiment-upload listener over real HTTP for the tests, on the in-memory store or on a fresh
// PostgreSQL database of the test run's server, and sends requests to it.
import { randomUUID } from 'node:crypto';
import type { ReferenceOptions } from '../../../reference-impl/options.ts';
import { buildExperimentUploadApp } from '../../../reference-impl/experiment-upload/app.ts';
import { startListener, startOnBackend, type Backend, type ListenerServer } from '../../support/reference-listener.ts';

export { BACKENDS, databaseFor, sendRequest } from '../../support/reference-listener.ts';

export type ExperimentUploadServer = ListenerServer;

/** Options every test server shares: one key with one tenant, and fast statistics. */
export function testOptions(overrides: Partial<ReferenceOptions> = {}): ReferenceOptions {
  return { apiKeys: [{ key: `test-key-${randomUUID()}`, tenants: [randomUUID()] }], statsDelayMs: 100, ...overrides };
}

/** Builds and starts the tracing app with `options` (a databaseUrl selects PostgreSQL). */
export function startExperimentUpload(options: ReferenceOptions): Promise<ExperimentUploadServer> {
  return startListener(options, buildExperimentUploadApp);
}

/** Starts a server on `backend` with its own database; `close` also drops the database. */
export function startOn(backend: Backend, overrides: Partial<ReferenceOptions> = {}): Promise<ExperimentUploadServer> {
  return startOnBackend(backend, (databaseUrl) => startExperimentUpload(testOptions({ databaseUrl, ...overrides })));
}
