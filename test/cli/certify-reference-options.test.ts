// `--reference` and `--database` choose how the in-repo reference implementation runs; a bad
// value, or either flag with a target URL, is the user's setup: exit 2 naming the flag.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { choiceFlags, referenceChoice } from '../../harness/reference/reference-choice.ts';
import { ROOT } from '../support/certify.ts';

const apc = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

test('the defaults are the reference in this process, on in-memory storage', () => {
  expect(referenceChoice(undefined, undefined)).toEqual({ kind: 'process', database: 'memory' });
  expect(referenceChoice('container', 'postgres')).toEqual({ kind: 'container', database: 'postgres' });
});

test('repro lines start the same reference again: the flags of a non-default choice', () => {
  expect(choiceFlags({ kind: 'process', database: 'memory' })).toBe('');
  expect(choiceFlags({ kind: 'container', database: 'postgres' })).toBe('--reference container --database postgres');
  expect(choiceFlags({ kind: 'process', database: 'postgres' })).toBe('--database postgres');
});

test('an unknown --reference or --database exits 2 naming the flag and the accepted values', () => {
  const kind = apc('certify', '--reference', 'vm');
  expect(kind.status).toBe(2);
  expect(kind.stderr).toContain('--reference: expected process or container, found "vm"');
  const database = apc('certify', '--database', 'sqlite');
  expect(database.status).toBe(2);
  expect(database.stderr).toContain('--database: expected memory or postgres, found "sqlite"');
});

test('--reference and --database with a target URL exit 2: they only apply to the reference implementation', () => {
  const run = apc('certify', '--control-plane-url', 'http://127.0.0.1:1', '--reference', 'container');
  expect(run.status).toBe(2);
  expect(run.stderr).toContain('apply only when certifying the in-repo reference implementation');
});
