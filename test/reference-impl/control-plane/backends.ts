// The two storage backends every behaviour test runs on, and a database for each.
import { inject } from 'vitest';
import { freshDatabase } from '../../support/postgres.ts';

export type Backend = 'memory' | 'postgres';
export const BACKENDS: Backend[] = ['memory', 'postgres'];

/** A database for one test file: a fresh PostgreSQL database, or none for the memory backend. */
export async function databaseFor(backend: Backend): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  if (backend === 'memory') return { url: undefined, drop: async () => undefined };
  return freshDatabase(inject('databaseUrl'));
}
