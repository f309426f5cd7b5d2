// PostgreSQL for the project's own tests: a throwaway server for one test run (started by
// global-setup.ts) and a fresh, uniquely named database per test file on that server.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** Operating-system account the server runs as when the tests run as root (PostgreSQL refuses root). */
const SERVER_ACCOUNT = 'postgres';
const SUPERUSER = 'postgres';

export interface ThrowawayServer {
  /** Superuser connection string of the server's `postgres` database. */
  adminUrl: string;
  stop(): Promise<void>;
}

/** The directory holding `initdb` and `pg_ctl`, or an error naming what to install. */
export async function findServerBinaries(): Promise<string> {
  const candidates: string[] = [];
  try {
    const { stdout } = await run('pg_config', ['--bindir']);
    candidates.push(stdout.trim());
  } catch {
    // pg_config is absent when only the server package is installed; look in the usual place.
  }
  const debianRoot = '/usr/lib/postgresql';
  if (existsSync(debianRoot)) {
    const versions = readdirSync(debianRoot)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(debianRoot, v, 'bin')));
  }
  const found = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (found) return found;
  throw new Error(
    'PostgreSQL server binaries (initdb, pg_ctl) were not found; looked at `pg_config --bindir` and ' +
      `${debianRoot}/*/bin. Install the PostgreSQL server (Debian/Ubuntu package \`postgresql\`), or set ` +
      'APC_TEST_DATABASE_URL to a superuser connection string of a running server.',
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a server binary, as the `postgres` account when this process is root. */
async function runServerTool(binDir: string, tool: string, args: string[]): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const [command, commandArgs] = asRoot
    ? ['runuser', ['-u', SERVER_ACCOUNT, '--', join(binDir, tool), ...args]]
    : [join(binDir, tool), args];
  try {
    await run(command, commandArgs, { timeout: 60_000 });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${tool} ${args.join(' ')} failed: ${stderr || stdout || String(error)}`);
  }
}

/**
 * Starts a PostgreSQL server in a fresh temp directory: 127.0.0.1 only, a free port, trust
 * auth, durability off (the data is thrown away), its socket inside its own directory.
 */
export async function startThrowawayServer(): Promise<ThrowawayServer> {
  const binDir = await findServerBinaries();
  const root = mkdtempSync(join(tmpdir(), 'apc-pg-'));
  const dataDir = join(root, 'data');
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', SERVER_ACCOUNT]).catch(() => {
      throw new Error(`Tests run as root, and PostgreSQL refuses root: an OS account "${SERVER_ACCOUNT}" is needed (the \`postgresql\` package creates it).`);
    });
    const { stdout: gid } = await run('id', ['-g', SERVER_ACCOUNT]);
    chownSync(root, Number(stdout.trim()), Number(gid.trim()));
  }
  chmodSync(root, 0o700);
  try {
    await runServerTool(binDir, 'initdb', ['-D', dataDir, '-U', SUPERUSER, '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const port = await freePort();
      const serverOptions = [
        `-p ${port}`,
        "-c listen_addresses='127.0.0.1'",
        `-c unix_socket_directories='${root}'`,
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        '-c max_connections=300',
      ].join(' ');
      try {
        await runServerTool(binDir, 'pg_ctl', ['start', '-w', '-t', '60', '-D', dataDir, '-l', join(root, 'server.log'), '-o', serverOptions]);
        return {
          adminUrl: `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`,
          async stop() {
            await runServerTool(binDir, 'pg_ctl', ['stop', '-m', 'fast', '-w', '-D', dataDir]).catch(() => undefined);
            rmSync(root, { recursive: true, force: true });
          },
        };
      } catch (error) {
        // Another process may have taken the port between probing and binding: try another.
        lastError = error;
      }
    }
    throw lastError;
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

/** Creates a uniquely named database on the server of `adminUrl`, so each test file is isolated. */
export async function freshDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `apc_test_${randomBytes(6).toString('hex')}`;
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
