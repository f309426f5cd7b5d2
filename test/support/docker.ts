// Whether this machine has a working Docker (the `docker` command and a daemon that answers).
// Tests of the image run only where it has; in CI (CI=true) a missing Docker is a failure,
// never a silent skip, since .ci/run starts one.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function dockerProblem(): Promise<string | undefined> {
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
