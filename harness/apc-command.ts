// How to type `apc` where a printed command will be run: `apc` when the harness is installed
// globally (an `apc` command on PATH), `npx apc` in a project or a clone, where the bin lives in
// node_modules/.bin or bin/ and only npx finds it. Every printed next step (apc serve's certify
// line, apc init's next step, the resume line, a failure's repro lines) starts with it.
import { existsSync } from 'node:fs';
import { delimiter, join, sep } from 'node:path';

const LOCAL_BINS = `${sep}node_modules${sep}.bin`;
let cached: { path: string; command: string } | undefined;

/** `apc` when an `apc` command is on PATH outside a project's node_modules/.bin (npx adds that one), else `npx apc`. */
export function apcCommand(path: string = process.env.PATH ?? ''): string {
  if (cached?.path === path) return cached.command;
  const global = path
    .split(delimiter)
    .filter((dir) => dir !== '' && !dir.endsWith(LOCAL_BINS))
    .some((dir) => existsSync(join(dir, 'apc')) || existsSync(join(dir, 'apc.cmd')));
  cached = { path, command: global ? 'apc' : 'npx apc' };
  return cached.command;
}
