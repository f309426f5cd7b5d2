// Whether this machine has a working Docker (the `docker` command and a daemon that answers).
// Tests of the image run only where it has; in CI (CI=true) a missing Docker is a failure,
// never a silent skip, since .ci/run starts one. The socket is looked at first, as `apc certify
// --reference container` does (harness/reference/docker-socket.ts): where no daemon runs, that
// answers at once, where `docker info` could take seconds.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { dockerSocketProblem, type SocketLookup } from '../../harness/reference/docker-socket.ts';

const run = promisify(execFile);

/** Why Docker cannot run the image tests here, or undefined when a daemon answered `docker info`. */
export async function dockerProblem(lookup: SocketLookup = {}): Promise<string | undefined> {
  const socket = await dockerSocketProblem(lookup);
  if (socket !== undefined) return socket;
  try {
    await run('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 20_000 });
    return undefined;
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    return (stderr || message).trim().split('\n')[0];
  }
}

/**
 * `docker ARGS` with `env` added to its environment (pass secrets there, as `-e NAME` without a
 * value, so they never appear in a command line); its standard output. A failure names the
 * command and what docker printed.
 */
export async function docker(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    const { stdout } = await run('docker', args, { timeout: 600_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } });
    return stdout.trim();
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`docker ${args.slice(0, 3).join(' ')} ... failed: ${stderr || stdout || String(error)}`);
  }
}
