// The README's commands that can run here, run as it shows them, made cheap (a one-requirement
// certification of the reference, a plan that sends nothing, the selftest's listing): each must
// exit 0 and print what the README says it does. readme-commands.ts lists every README command,
// run here or only parsed, with the reason.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { ROOT } from '../../harness/root.ts';
import { README_COMMANDS, isRun } from './readme-commands.ts';

const work = mkdtempSync(join(tmpdir(), 'apc-readme-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The environment without the APC_* settings of whoever runs the tests, which would name another target. */
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('APC_')));

describe("the README's commands, run", () => {
  const runs = Object.entries(README_COMMANDS).flatMap(([command, way]) => (isRun(way) ? [[command, way] as const] : []));

  test.each(runs)('%s', { timeout: 120_000 }, async (command, way) => {
    const [program, ...args] = way.run(mkdtempSync(join(work, 'reports-')));
    const { stdout, stderr } = await promisify(execFile)(program!, args, { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 });
    expect(`${stdout}${stderr}`, command).toMatch(way.prints);
  });
});
