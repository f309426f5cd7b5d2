// The commits the feedback section compares, each in a clone of its own: a shared clone of this
// repository (its objects borrowed, nothing written to this checkout's git state) checked out at the
// commit, with its dependencies installed as CI installs them. Removed when the bench ends.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../harness/root.ts';

export interface Checkout {
  /** `old`, `new`, or `this checkout` when no commits are compared. */
  label: string;
  /** The full commit id, or null for this checkout (its working tree as it is). */
  commit: string | null;
  dir: string;
}

/** The commit a name (`HEAD~3`, a branch, a short id) stands for, or the problem in one line. */
export function resolveCommit(ref: string): { commit: string } | { problem: string } {
  const found = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8' });
  return found.status === 0 ? { commit: found.stdout.trim() } : { problem: `${JSON.stringify(ref)} names no commit of this repository` };
}

/** A clone of this repository at `commit` in a new folder under `parent`, without its dependencies. */
export function cloneAt(parent: string, label: string, commit: string): Checkout {
  const dir = mkdtempSync(join(parent, `${label}-`));
  execFileSync('git', ['clone', '--quiet', '--shared', '--no-checkout', ROOT, dir], { stdio: 'ignore' });
  execFileSync('git', ['-C', dir, 'checkout', '--quiet', '--detach', commit], { stdio: 'ignore' });
  return { label, commit, dir };
}

/**
 * Installs what `npm test` needs in a clone, before anything is timed: `npm ci`, and the pinned
 * LangGraph JS server where the commit certifies one (its test would otherwise install it inside
 * the first timed run).
 */
export function install(checkout: Checkout, log: (text: string) => void): void {
  const run = (command: string, args: string[]) => {
    log(`${checkout.label}: ${command} ${args.join(' ')}`);
    const done = spawnSync(command, args, { cwd: checkout.dir, encoding: 'utf8' });
    if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} in the ${checkout.label} clone exited with ${done.status}:\n${done.stderr}`);
  };
  run('npm', ['ci', '--no-audit', '--no-fund']);
  if (existsSync(join(checkout.dir, 'scripts', 'install-langgraph-server.sh'))) run('bash', ['scripts/install-langgraph-server.sh']);
}

/** A folder for the clones, and its removal. */
export function clonesFolder(): { parent: string; remove(): void } {
  const parent = mkdtempSync(join(tmpdir(), 'apc-bench-commits-'));
  return { parent, remove: () => rmSync(parent, { recursive: true, force: true }) };
}
