// Values global-setup.ts provides to every test file (`inject('databaseUrl')`, `sharedReference()`).
import type { SharedReference } from './shared-reference.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser connection string of the test run's PostgreSQL server. */
    databaseUrl: string;
    /** The run's reference implementation: a process or a container (APC_REFERENCE). */
    reference: SharedReference;
    /** Where the consumer tests of contracts/ write their pact files: a temporary folder of the run (none under contracts/vitest.config.ts). */
    pactDir?: string;
  }
}
