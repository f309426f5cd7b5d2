// Values global-setup.ts provides to every test file (`inject('databaseUrl')`, `sharedReference()`).
import type { SharedReference } from './shared-reference.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser connection string of the test run's PostgreSQL server. */
    databaseUrl: string;
    /** The run's reference implementation: a process or a container (APC_REFERENCE). */
    reference: SharedReference;
  }
}
