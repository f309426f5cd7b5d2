// Printed next steps run as printed: `apc ...` where an `apc` command is on PATH (installed
// globally), `npx apc ...` where it is not (a clone, or a project whose node_modules/.bin only
// npx puts on PATH).
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { apcCommand } from '../../harness/apc-command.ts';
import { scratchDir } from '../support/scratch.ts';

function binDir(root: string, name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'apc'), '#!/bin/sh\n');
  chmodSync(join(dir, 'apc'), 0o755);
  return dir;
}

describe('apcCommand', () => {
  test('an apc on PATH (a global install) is typed as apc', () => {
    const root = scratchDir('apc-command');
    expect(apcCommand([join(root, 'empty'), binDir(root, 'global-bin')].join(delimiter))).toBe('apc');
  });

  test('only a project-local node_modules/.bin apc, or none at all, is typed as npx apc', () => {
    const root = scratchDir('apc-command');
    expect(apcCommand(binDir(root, join('project', 'node_modules', '.bin')))).toBe('npx apc');
    expect(apcCommand(join(root, 'nothing-here'))).toBe('npx apc');
    expect(apcCommand('')).toBe('npx apc');
  });
});
