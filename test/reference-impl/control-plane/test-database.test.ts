// The test-run PostgreSQL server (test/support/global-setup.ts) and per-file databases work.
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { freshDatabase } from '../../support/postgres.ts';

describe('test database support', () => {
  it('creates isolated databases on the provided server and drops them', async () => {
    const first = await freshDatabase(inject('databaseUrl'));
    const second = await freshDatabase(inject('databaseUrl'));
    try {
      expect(first.url).not.toBe(second.url);
      const client = new pg.Client({ connectionString: first.url });
      await client.connect();
      await client.query('CREATE TABLE marker (id int)');
      await client.end();
      const other = new pg.Client({ connectionString: second.url });
      await other.connect();
      const { rows } = await other.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'marker'");
      await other.end();
      expect(rows[0]).toEqual({ n: 0 });
    } finally {
      await first.drop();
      await second.drop();
    }
    const admin = new pg.Client({ connectionString: inject('databaseUrl') });
    await admin.connect();
    const { rows } = await admin.query('SELECT datname FROM pg_database WHERE datname = $1', [new URL(first.url).pathname.slice(1)]);
    await admin.end();
    expect(rows).toEqual([]);
  });
});
