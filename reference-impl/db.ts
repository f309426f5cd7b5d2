// PostgreSQL access shared by the stores of every interface. Each store creates its own tables
// (idempotent DDL) on open, so a fresh database needs no separate migration step.
import { createRequire } from 'node:module';
import type pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

// Loaded when a database is opened: the reference keeps its data in memory unless given one, and
// loading the PostgreSQL client was a tenth of its start.
const requireHere = createRequire(import.meta.url);

export function openPool(databaseUrl: string): pg.Pool {
  const { Pool } = requireHere('pg') as typeof pg;
  const pool = new Pool({ connectionString: databaseUrl, max: 8 });
  // An idle client's error (the server restarting, say) must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
