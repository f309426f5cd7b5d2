// `apc selftest`, as a user runs it (its one, full mode): every mutant caught on exactly its declared
// requirements (in 20 of 20 seeds where a property catches it), no false alarm on any valid
// variation, every hostile run ended with a report within its bound. The matrix is also written
// where the README's summary comes from (selftest.json / selftest.md).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.ts';
import type { SelftestReport } from '../../harness/selftest/report.ts';
import { ROOT } from '../support/certify.ts';

test('apc selftest meets every target', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'apc-selftest-'));
  try {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), 'selftest', '--reports', dir], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    const report = JSON.parse(readFileSync(join(dir, 'selftest.json'), 'utf8')) as SelftestReport;
    expect(report.problems, output).toEqual([]);
    expect(code, output).toBe(0);
    // Many certifications run side by side in one process: none of node's warnings (listeners piling up) may show.
    expect(output).not.toMatch(/\(node:\d+\) \w*Warning/);
    expect(report.mutationScore.caught).toBe(report.mutationScore.total);
    expect(report.falseAlarms).toBe(0);
    expect(report.imprecise).toBe(0);
    expect(report.belowDetectionTarget).toBe(0);
    expect(report.mutants.filter((m) => m.detection).every((m) => m.detection!.seeds === 20)).toBe(true);
    expect(report.hostile.every((h) => h.ok)).toBe(true);
    // Every observable MUST is named by a mutant that was caught.
    const catalogue = loadCatalogue();
    const excluded = new Set(catalogue.exclusions.map((e) => e.id).filter(Boolean));
    const caughtBy = new Set(report.mutants.flatMap((m) => m.caughtBy));
    expect(catalogue.requirements.filter((r) => r.level === 'MUST' && !excluded.has(r.id) && !caughtBy.has(r.id)).map((r) => r.id)).toEqual([]);
    expect(readFileSync(join(dir, 'selftest.md'), 'utf8')).toMatch(/^# apc selftest: every target met/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 3_600_000);
