// Runs an `apc` command inside the test's process (harness/cli/main.ts, as bin/apc.mjs calls it)
// and returns its exit code and what it printed: the same command and flags as a user's, without
// paying node's start and the harness's imports again for each. Tests of the process itself (its
// signals, its working directory, what a real child prints) spawn bin/apc.mjs instead.
import { main } from '../../harness/cli/main.ts';

export interface ApcRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `env` is the command's whole environment (NO_COLOR added): nothing of this process's leaks in. */
export async function apcHere(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ApcRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { out: { write: (t) => void (stdout += t) }, err: { write: (t) => void (stderr += t) }, env: { NO_COLOR: '1', ...env } });
  return { code, stdout, stderr };
}
