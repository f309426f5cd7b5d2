// `apc selftest` on the command line: listing its subjects, and usage problems (exit 2, with
// what to fix) before anything runs. Running it is test/selftest/selftest.test.ts. The commands run
// inside this process (test/support/apc-here.ts), with this process's environment as a child gets
// it: a child per command paid node's start and the harness's imports again.
import { describe, expect, test } from 'vitest';
import { apcCommand } from '../../harness/apc-command.ts';
import { apcHere } from '../support/apc-here.ts';

/** How the child's hints type apc: `npx apc` here, where no apc is on PATH (harness/apc-command.ts). */
const APC = apcCommand();

const apc = (...args: string[]) => apcHere(args, { ...process.env, NO_COLOR: '1' });

describe('apc selftest options', () => {
  test('--list names each selected subject and what a mutant declares, and runs nothing', async () => {
    const r = await apc('selftest', '--list', '--kinds', 'mutants,variations', '--only', 'cp.immutable-name-accepted,as.sse-*');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^mutant +cp\.immutable-name-accepted +control-plane +CP-IMM-001$/m);
    expect(r.stdout).toMatch(/^variation +as\.sse-unusual-framing +agent-server /m);
    expect(r.stdout).not.toMatch(/^hostile/m);
  });

  test.each([
    [['--kinds', 'bogus'], /--kinds: unknown kind\(s\) bogus; use mutants, variations, hostile, multi-fault\./],
    [['--only', 'no-such-subject'], new RegExp(`selects no subject; \`${APC} selftest --list\` lists them\\.`)],
    [['--seeds', '0'], /--seeds: expected a whole number from 1 to 1000, found "0"\./],
    [['--frobnicate'], new RegExp(`Run \`${APC} help selftest\` for the options\\.`)],
  ])('%j is a usage problem: exit 2', async (args, message) => {
    const r = await apc('selftest', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  test('apc help selftest explains the measures and exit codes', async () => {
    const r = await apc('help', 'selftest');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--seeds N');
    expect(r.stdout).toMatch(/Exit codes: 0 every target met/);
  });
});
