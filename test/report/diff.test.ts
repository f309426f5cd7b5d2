// `apc report diff OLD NEW`: newly failing, newly passing, changed messages, requirements added
// or removed by a catalogue change; exit 1 only when a requirement that passed fails now.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { ComplianceReport, RequirementResult } from '../../harness/report/compliance.ts';
import { diffMarkdown, diffReports, hasRegression } from '../../harness/report/diff.ts';
import { writeReports } from '../../harness/report/write.ts';
import { ROOT } from '../support/certify.ts';
import { HOSTILE, hostileFailure, sampleReport } from './support/sample-report.ts';

/** The sample report one night later: one rule broke, one was fixed, one fails differently, the catalogue changed. */
function nextNight(): ComplianceReport {
  const report = structuredClone(sampleReport({ runId: 'apc-night2' }));
  const byId = (id: string) => report.requirements.find((r) => r.id === id)!;
  Object.assign(byId('CP-DEP-001'), { status: 'failed', failures: [{ ...hostileFailure('CP-DEP-001'), message: 'GET /v2/deployments/{id} answered 500.' }] });
  Object.assign(byId('CP-DEP-002'), { status: 'passed', failures: [] });
  byId('AS-RUN-002').failures = [{ ...hostileFailure('AS-RUN-002'), message: 'The stream ended without an end event.' }];
  const added: RequirementResult = { ...byId('AS-RUN-001'), id: 'AS-RUN-003', statement: 'A new rule of catalogue 0.2.0.' };
  report.requirements = [...report.requirements.filter((r) => r.id !== 'EU-UPL-001'), added];
  report.catalogue = { ...report.catalogue, version: '0.2.0' };
  return report;
}

describe('diffReports', () => {
  const before = sampleReport({ runId: 'apc-night1' });
  const diff = diffReports(before, nextNight());

  test('sorts every change into its kind', () => {
    expect(diff.newlyFailing.map((c) => [c.id, c.before, c.after])).toEqual([['CP-DEP-001', 'passed', 'failed']]);
    expect(diff.newlyFailing[0]!.message).toBe('GET /v2/deployments/{id} answered 500.');
    expect(diff.newlyPassing.map((c) => c.id)).toEqual(['CP-DEP-002']);
    expect(diff.changedMessages.map((c) => [c.id, c.after])).toEqual([['AS-RUN-002', 'The stream ended without an end event.']]);
    expect(diff.added.map((r) => r.id)).toEqual(['AS-RUN-003']);
    expect(diff.removed.map((r) => r.id)).toEqual(['EU-UPL-001']);
    expect(hasRegression(diff)).toBe(true);
  });

  test('the same report twice: no change and no regression', () => {
    const same = diffReports(before, before);
    expect(hasRegression(same)).toBe(false);
    expect(diffMarkdown(same)).toContain('No change.');
  });

  test('a fix alone is no regression', () => {
    const fixed = structuredClone(before);
    Object.assign(fixed.requirements.find((r) => r.id === 'CP-DEP-002')!, { status: 'passed', failures: [] });
    const d = diffReports(before, fixed);
    expect(d.newlyPassing.map((c) => c.id)).toEqual(['CP-DEP-002']);
    expect(hasRegression(d)).toBe(false);
  });

  test('baselined failures are judged as apc certify judges them: known, not regressions', () => {
    const night = (statuses: Record<string, RequirementResult['status']>, runId: string) => {
      const report = structuredClone(sampleReport({ runId }));
      for (const r of report.requirements) if (statuses[r.id]) Object.assign(r, { status: statuses[r.id], failures: statuses[r.id] === 'passed' ? [] : [hostileFailure(r.id)] });
      return report;
    };
    const known = { 'CP-DEP-001': 'expected-failure', 'CP-DEP-002': 'blocked-by-expected-failure', 'AS-RUN-001': 'passed' } as const;
    const first = night(known, 'apc-night1');
    expect(hasRegression(diffReports(first, night(known, 'apc-night2')))).toBe(false);
    // A new failure is the only regression; the known ones are not named.
    const second = diffReports(first, night({ ...known, 'AS-RUN-001': 'failed' }, 'apc-night2'));
    expect(second.newlyFailing.map((c) => c.id)).toEqual(['AS-RUN-001']);
    expect(hasRegression(second)).toBe(true);
    // What only a known failure blocked, blocked now by a failure outside the baseline, is new again.
    const unexcused = diffReports(first, night({ ...known, 'CP-DEP-002': 'blocked' }, 'apc-night2'));
    expect(unexcused.newlyFailing.map((c) => [c.id, c.before, c.after])).toEqual([['CP-DEP-002', 'blocked-by-expected-failure', 'blocked']]);
    expect(hasRegression(unexcused)).toBe(true);
    // A failure added to the baseline the night it appears is named, and is no regression.
    const accepted = diffReports(night({ 'AS-RUN-001': 'passed' }, 'apc-night1'), night({ 'AS-RUN-001': 'expected-failure' }, 'apc-night2'));
    expect(accepted.newlyFailing.map((c) => c.id)).toEqual(['AS-RUN-001']);
    expect(hasRegression(accepted)).toBe(false);
  });

  test('a status change between two failing statuses is a status change, whatever the messages', () => {
    const night = (status: RequirementResult['status'], message: string, runId: string) => {
      const report = structuredClone(sampleReport({ runId }));
      Object.assign(report.requirements.find((r) => r.id === 'CP-DEP-003')!, { status, blockedBy: ['CP-DEP-002'], failures: [{ ...hostileFailure('CP-DEP-003'), message }] });
      return report;
    };
    const d = diffReports(night('blocked', 'Stopped at seed 1.', 'apc-night1'), night('blocked-by-expected-failure', 'Stopped at seed 2.', 'apc-night2'));
    expect(d.otherChanges.map((c) => [c.id, c.before, c.after])).toEqual([['CP-DEP-003', 'blocked', 'blocked-by-expected-failure']]);
    expect(d.changedMessages).toEqual([]);
    expect(diffMarkdown(d)).toContain('## Other status changes (1)');
    expect(hasRegression(d)).toBe(false);
  });

  test('Markdown names runs, catalogue change and each section; target text is escaped', () => {
    const md = diffMarkdown(diff);
    expect(md).toContain('# apc report diff: apc-night1 → apc-night2');
    expect(md).toContain('Catalogue 0.1.0 → 0.2.0.');
    for (const section of ['## Newly failing (1)', '## Newly passing (1)', '## Failing with a changed message (1)', '## Added by the catalogue (1)', '## Removed from the catalogue (1)']) {
      expect(md).toContain(section);
    }
    expect(HOSTILE).toContain('<script>');
    expect(md).not.toContain('<script>');
  });
});

describe('apc report diff', () => {
  const dir = mkdtempSync(join(tmpdir(), 'apc-diff-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, report] of [['night1', sampleReport({ runId: 'apc-night1' })], ['night2', nextNight()]] as const) {
    mkdirSync(join(dir, name));
    writeReports(join(dir, name), report);
  }
  const apc = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), 'report', 'diff', ...args], { cwd: dir, encoding: 'utf8' });

  test('prints Markdown and exits 1 on a regression', () => {
    const r = apc('night1', 'night2');
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain('## Newly failing (1)');
    expect(r.stdout).toContain('CP-DEP-001');
  });

  test('--out writes the Markdown to a file; exit 0 without a regression', () => {
    const r = apc('night1', 'night1', '--out', 'diff.md');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('diff written to');
    expect(readFileSync(join(dir, 'diff.md'), 'utf8')).toContain('No change.');
  });

  test('a folder without a report exits 2 saying so', () => {
    const r = apc('night1', 'nowhere');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('nowhere: expected a report folder written by `apc certify`');
  });
});
