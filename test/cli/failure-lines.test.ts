// No failure line lacks what was seen: a certification of the reference broken on each interface,
// its terminal lines and compliance.md's rows of failed requirements each carry "Seen: ...".
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../support/certify.ts';

test('every failure in the terminal and in compliance.md says what was seen', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'apc-seen-'));
  try {
    const faults = ['cp.not-found-plain-text', 'as.patch-merges', 'eu.no-grouping'].flatMap((f) => ['--reference-fault', f]);
    const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), 'certify', '--runs', '3', '--reports', dir, ...faults, '--requirements', 'CP-ERR-001,AS-ASST-003,EU-DS-004'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 280_000,
    });
    expect(run.status, run.stderr).toBe(1);
    // Nothing but the run: no warning of a dependency's experimental feature.
    expect(run.stderr).not.toContain('ExperimentalWarning');
    const lines = run.stdout.split('\n');
    const failed = lines.flatMap((line, i) => (/^\s+✗ [A-Z]{2}-/.test(line) ? [lines[i + 1] ?? ''] : []));
    expect(failed.length).toBeGreaterThanOrEqual(3);
    for (const line of failed) expect(line).toMatch(/ Seen: \S/);
    const markdown = readFileSync(join(dir, 'compliance.md'), 'utf8');
    const rows = markdown.split('\n').filter((row) => /^\| ✗ \| [A-Z]{2}-/.test(row));
    expect(rows.map((row) => row.split(' | ')[1])).toEqual(expect.arrayContaining(['CP-ERR-001', 'AS-ASST-003', 'EU-DS-004']));
    for (const row of rows) expect(row).toMatch(/ Seen: \S/);
    // The faults switched on are named by the terminal's header and summary, and by each report's target.
    const named = 'fault switches on: cp.not-found-plain-text, as.patch-merges, eu.no-grouping';
    expect(lines.filter((line) => line.includes(named))).toHaveLength(2);
    expect(markdown.split('\n').find((line) => line.startsWith('- **Target:**'))).toContain(named);
    expect(readFileSync(join(dir, 'compliance.html'), 'utf8')).toMatch(new RegExp(`<dt>Target</dt><dd>[^<]*${named}`));
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain(`<property name="apc.switched-on" value="${named}"/>`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
