// Values global-setup.ts provides to every test file (`inject('databaseUrl')`).
export {};

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser connection string of the test run's PostgreSQL server. */
    databaseUrl: string;
  }
}
