// `--reference` and `--database` choose how the in-repo reference implementation runs; a bad
// value, or either flag with a target URL, is the user's setup: exit 2 naming the flag. The
// commands run inside this process (test/support/apc-here.ts), with this process's environment.
import { expect, test } from 'vitest';
import { choiceFlags, referenceChoice } from '../../harness/reference/reference-choice.ts';
import { apcHere } from '../support/apc-here.ts';

const apc = (...args: string[]) => apcHere(args, { ...process.env, NO_COLOR: '1' });

test('the defaults are the reference in this process, on in-memory storage', () => {
  expect(referenceChoice(undefined, undefined)).toEqual({ kind: 'process', database: 'memory' });
  expect(referenceChoice('container', 'postgres')).toEqual({ kind: 'container', database: 'postgres' });
});

test('repro lines start the same reference again: the flags of a non-default choice', () => {
  expect(choiceFlags({ kind: 'process', database: 'memory' })).toBe('');
  expect(choiceFlags({ kind: 'container', database: 'postgres' })).toBe('--reference container --database postgres');
  expect(choiceFlags({ kind: 'process', database: 'postgres' })).toBe('--database postgres');
});

test('an unknown --reference or --database exits 2 naming the flag and the accepted values', async () => {
  const kind = await apc('certify', '--reference', 'vm');
  expect(kind.code).toBe(2);
  expect(kind.stderr).toContain('--reference: expected process or container, found "vm"');
  const database = await apc('certify', '--database', 'sqlite');
  expect(database.code).toBe(2);
  expect(database.stderr).toContain('--database: expected memory or postgres, found "sqlite"');
});

test('--reference and --database with a target URL exit 2: they only apply to the reference implementation', async () => {
  const run = await apc('certify', '--control-plane-url', 'http://127.0.0.1:1', '--reference', 'container');
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('apply only when certifying the in-repo reference implementation');
});
