// Publishing pact files to a Pact Broker with the official broker client (`pact-broker publish`,
// shipped as a native binary in @pact-foundation/pact-cli). The broker URL and credentials stay
// in the environment (PACT_BROKER_BASE_URL, PACT_BROKER_TOKEN or _USERNAME/_PASSWORD), where the
// client reads them, so they never appear on a command line; the consumer version and branch
// come from git unless given.
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { ContractsError } from './verify.ts';

export interface GitVersion {
  version: string;
  /** Undefined on a detached HEAD (give --branch). */
  branch: string | undefined;
}

export function gitVersion(cwd: string): GitVersion {
  const git = (...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const branch = git('rev-parse', '--abbrev-ref', 'HEAD');
    return { version: git('rev-parse', 'HEAD'), branch: branch === 'HEAD' ? undefined : branch };
  } catch {
    throw new ContractsError('Cannot read the version from git here: give --consumer-version (and --branch), or run inside the repository.');
  }
}

export function brokerFromEnv(env: NodeJS.ProcessEnv): string {
  const url = env.PACT_BROKER_BASE_URL;
  if (!url) throw new ContractsError('PACT_BROKER_BASE_URL is not set: export the base URL of your Pact Broker (and PACT_BROKER_TOKEN).');
  return url;
}

export interface PublishRun {
  code: number;
  output: string;
}

/** Runs `pact-broker publish DIR --consumer-app-version V [--branch B]` with the given environment. */
export function publishPacts(dir: string, version: GitVersion, env: NodeJS.ProcessEnv): Promise<PublishRun> {
  const client = createRequire(import.meta.url).resolve('@pact-foundation/pact-cli/bin/pact-broker.js');
  const args = [client, 'publish', dir, '--consumer-app-version', version.version, ...(version.branch ? ['--branch', version.branch] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { PACT_DO_NOT_TRACK: 'true', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
