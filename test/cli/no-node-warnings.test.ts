// What a user reads first is apc's own output: no Node warning (undici's experimental
// decompression announced itself on the first request, in the CLI and in each suite worker).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { apc } from '../report/support/apc.ts';

const work = mkdtempSync(join(tmpdir(), 'apc-warnings-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

test('apc certify prints no Node warning, from the CLI or its workers', async () => {
  // One requirement per interface: the CLI's preflight and every suite worker send requests.
  const run = await apc(['certify', '--requirements', 'CP-DEL-001,AS-ASST-001,EU-STAT-001', '--reports', join(work, 'r')]);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('verdict: PASSED');
  expect(`${run.stdout}${run.stderr}`).not.toMatch(/Warning|--trace-warnings/);
}, 240_000);

test('apc help prints no Node warning', async () => {
  const run = await apc(['help']);
  expect(run.code).toBe(0);
  expect(run.stderr).toBe('');
});
