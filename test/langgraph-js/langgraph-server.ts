// The open-source LangGraph JS agent server (in-memory dev mode, pinned in ./server/package.json)
// serving the `echo` and `fail` fixture graphs, for the tests that certify it and verify the
// agent-client pact against it. Installed by scripts/install-langgraph-server.sh when missing.
// The server writes its in-memory state (`.langgraph_api/`) and a `.gitignore` beside its
// langgraph.json, so each start gets a temporary project folder whose langgraph.json points back
// at the graphs here: the checkout stays as it was.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROOT } from '../../harness/root.ts';

export const SERVER_DIR = join(ROOT, 'test', 'langgraph-js', 'server');
const CLI = join(SERVER_DIR, 'node_modules', '@langchain', 'langgraph-cli', 'dist', 'cli', 'cli.mjs');
/** A start takes about 10 s on a loaded machine (it compiles the graphs with tsx). */
const START_TIMEOUT_MS = 120_000;

export interface LangGraphServer {
  url: string;
  /** The server's output so far (for a failing test's message). */
  output(): string;
  close(): Promise<void>;
}

/** Installs the pinned server unless it is installed (npm ci of ./server: the npm registry only). */
export function ensureInstalled(): void {
  if (existsSync(CLI)) return;
  const install = spawnSync('bash', [join(ROOT, 'scripts', 'install-langgraph-server.sh')], { encoding: 'utf8' });
  if (install.status !== 0 || !existsSync(CLI)) {
    throw new Error(
      `Installing the LangGraph JS server (scripts/install-langgraph-server.sh) failed with ${install.status}:\n${install.stderr}${install.stdout}`,
    );
  }
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

/** A project folder of its own: ./server's langgraph.json with paths leading back to ./server. */
function projectFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'apc-langgraph-'));
  const config = JSON.parse(readFileSync(join(SERVER_DIR, 'langgraph.json'), 'utf8')) as { graphs: Record<string, string>; dependencies: string[] };
  const back = relative(dir, SERVER_DIR);
  const graphs = Object.fromEntries(Object.entries(config.graphs).map(([id, path]) => [id, join(back, path)]));
  writeFileSync(join(dir, 'langgraph.json'), JSON.stringify({ ...config, graphs, dependencies: [back] }, null, 2));
  return dir;
}

/** Ends the server's process group (the CLI starts the API server as a child of its own). */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Already gone.
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

async function answersOk(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/ok`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** Starts the server on `port` (default: a free one) and waits until it answers `GET /ok`. */
export async function startLangGraphServer(options: { port?: number } = {}): Promise<LangGraphServer> {
  ensureInstalled();
  const dir = projectFolder();
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const args = [CLI, 'dev', '--host', '127.0.0.1', '--port', String(port), '--no-browser', '--no-reload', '--config', join(dir, 'langgraph.json')];
  const child = spawn(process.execPath, args, {
    cwd: dir,
    env: { ...process.env, LANGGRAPH_CLI_NO_ANALYTICS: '1', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const close = async () => {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  };
  const until = Date.now() + START_TIMEOUT_MS;
  while (!(await answersOk(url))) {
    if (child.exitCode !== null || Date.now() > until) {
      await close();
      throw new Error(
        `The LangGraph JS server did not answer GET ${url}/ok (${child.exitCode !== null ? `it exited with ${child.exitCode}` : `${START_TIMEOUT_MS / 1000} s`}). Its output:\n${output.slice(-4_000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, output: () => output, close };
}
