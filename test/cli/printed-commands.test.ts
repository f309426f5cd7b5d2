// Every command apc prints for the user to type runs as printed where it was printed: in a clone or
// a project, where no `apc` is on PATH, it says `npx apc …` (harness/apc-command.ts); installed
// globally, `apc …`. Each case below prints such a hint: a mistake's "Run `… help …`", a mistyped
// command's suggestion, the help's topics, a missing profile's `… init`, the plan's hint.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { apcCommand } from '../../harness/apc-command.ts';
import { apcHere } from '../support/apc-here.ts';
import { scratchDir } from '../support/scratch.ts';

const CASES: [what: string, args: string[], hint: RegExp][] = [
  ['a mistyped command', ['certfy'], /Did you mean `npx apc certify`\?/],
  ['the help', ['help'], /Run `npx apc help init`, `npx apc help certify`/],
  ['an unknown option', ['certify', '--frobnicate'], /Run `npx apc help certify` for the options\./],
  ['an unknown fault', ['certify', '--reference-fault', 'cp.no-such-fault', '--plan'], /`npx apc help serve` lists the fault names\./],
  [
    'an interface without its URL',
    ['certify', '--interfaces', 'control-plane', '--agent-server-url', 'http://127.0.0.1:9', '--plan'],
    /\(see `npx apc help certify`\)/,
  ],
  ['cleanup without a URL', ['cleanup'], /\(see `npx apc help cleanup`\)/],
  ['a selftest selecting nothing', ['selftest', '--only', 'no-such-subject'], /`npx apc selftest --list` lists them\./],
  ['report merge without folders', ['report', 'merge'], /e\.g\. `npx apc report merge reports\/shard-1/],
  ['report diff with one folder', ['report', 'diff', 'one'], /`npx apc report diff reports\/last reports\/new`/],
  ['report matrix without folders', ['report', 'matrix'], /e\.g\. `npx apc report matrix reports\/reference/],
  ['the plan of a control-plane run', ['certify', '--plan', '--interfaces', 'control-plane'], /`npx apc init` finds out the busyPatch answer\./],
];

// On a machine with apc installed globally every hint says `apc …`, which is right there.
describe.skipIf(apcCommand() !== 'npx apc')(
  `printed commands in a clone${apcCommand() !== 'npx apc' ? ' (skipped: an apc command is on PATH here)' : ''}`,
  () => {
    test.each(CASES)('%s: the hint says npx apc', async (_what, args, hint) => {
      const run = await apcHere(args);
      const printed = run.stdout + run.stderr;
      expect(printed).toMatch(hint);
      // No command to type starts with a bare apc.
      expect(printed).not.toMatch(/`apc /);
    });

    test('a missing profile file names `npx apc init`, and nothing else to type', async () => {
      const run = await apcHere(['certify', '--profile', join(scratchDir('printed-commands'), 'nowhere.yaml'), '--plan']);
      expect(run.stderr).toContain('`npx apc init` writes one for a target.');
      expect(run.stderr).not.toMatch(/`apc /);
    });
  },
);
