// What a new user meets first, each said in one clear line: a mistyped command gets the closest
// one, a missing profile file is named as such (not a raw ENOENT), a YAML syntax error keeps its
// line and column, a mistyped baseline id gets the closest id, and the help lists every topic and
// warns that a key given as a flag shows in `ps`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { apcCommand } from '../../harness/apc-command.ts';
import { apcHere } from '../support/apc-here.ts';
import { scratchDir } from '../support/scratch.ts';

describe('small frictions', () => {
  test('a mistyped command suggests the closest one', async () => {
    const run = await apcHere(['certfy']);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(`apc: unknown command "certfy". Did you mean \`${apcCommand()} certify\`?`);
    expect((await apcHere(['selftset'])).stderr).toContain(`Did you mean \`${apcCommand()} selftest\`?`);
    expect((await apcHere(['zzzzzzzz'])).stderr).not.toContain('Did you mean');
  });

  test('apc help lists every topic, selftest included, and warns that --api-key shows in ps', async () => {
    const help = (await apcHere(['help'])).stdout;
    for (const topic of ['init', 'certify', 'serve', 'report', 'cleanup', 'selftest', 'contracts']) expect(help).toContain(`\`${apcCommand()} help ${topic}\``);
    expect(help).toMatch(/--api-key[\s\S]*visible[\s\S]*`ps`[\s\S]*APC_API_KEY/);
    const certify = (await apcHere(['certify', '--help'])).stdout;
    expect(certify).toMatch(/--api-key KEY +API key; never printed, but visible in `ps`: prefer APC_API_KEY/);
  });

  test('a missing profile file: one line that names it, no raw system error', async () => {
    const missing = join(scratchDir('frictions'), 'nowhere.yaml');
    const run = await apcHere(['certify', '--profile', missing, '--plan']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `apc certify: profile ${missing}: no such file. --profile (or APC_PROFILE) names a YAML file; \`${apcCommand()} init\` writes one for a target.\n`,
    );
    expect(run.stderr).not.toContain('ENOENT');
  });

  test('a YAML syntax error in the profile keeps its line and column', async () => {
    const file = join(scratchDir('frictions'), 'broken.yaml');
    writeFileSync(file, 'controlPlaneMode: hosted\nsources: [gitforge\nruns: 3\n');
    const run = await apcHere(['certify', '--profile', file, '--plan']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^apc certify: profile ${file}:3:1: not valid YAML: \\S`));
  });

  test('a baseline entry with a mistyped id gets the closest id; a syntax error its line and column', async () => {
    const dir = scratchDir('frictions');
    writeFileSync(join(dir, 'typo.yaml'), 'expected-failures:\n  - id: CP-REV-03\n    reason: listed oldest first\n');
    const typo = await apcHere(['certify', '--expected-failures', join(dir, 'typo.yaml'), '--plan']);
    expect(typo.stderr).toContain(`${join(dir, 'typo.yaml')}:2: unknown requirement id CP-REV-03; it is not in the catalogue. Did you mean CP-REV-003?`);
    writeFileSync(join(dir, 'broken.yaml'), 'expected-failures:\n  - id: [\n');
    const broken = await apcHere(['certify', '--expected-failures', join(dir, 'broken.yaml'), '--plan']);
    expect(broken.stderr).toMatch(new RegExp(`${join(dir, 'broken.yaml')}:\\d+:\\d+: not valid YAML: \\S`));
  });
});
