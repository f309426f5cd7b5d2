// The main job, as a new user runs it: `apc certify` with no target certifies the in-repo
// reference implementation, writes reports/<run-id>/compliance.json and exits 0.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.ts';
import type { ComplianceReport } from '../../harness/report/compliance.ts';
import { complianceReportProblems } from '../../schemas/compliance-report.ts';
import { ROOT } from '../support/certify.ts';
import { apcHere } from '../support/apc-here.ts';

let code: number | null;
let stdout = '';
let reportDir: string | undefined;
let report: ComplianceReport;
// Where the user runs apc: the default report folder ./reports/<run id> is under it, not in the checkout.
const cwd = mkdtempSync(join(tmpdir(), 'apc-certify-reference-'));

beforeAll(async () => {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'apc.mjs'), 'certify'], {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stdout += d.toString()));
  code = await new Promise((done) => child.on('close', done));
  const shown = /^report:\s+(\S+)$/m.exec(stdout)?.[1];
  reportDir = shown && join(cwd, shown);
  if (reportDir && existsSync(join(reportDir, 'compliance.json'))) {
    report = JSON.parse(readFileSync(join(reportDir, 'compliance.json'), 'utf8')) as ComplianceReport;
  }
}, 600_000);

afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('apc certify with no target (npm run certify)', () => {
  test('exits 0 with a certified verdict', () => {
    expect(code, stdout.slice(-3000)).toBe(0);
    expect(stdout).toContain('No target URL given: starting the in-repo reference implementation.');
    expect(stdout).toMatch(/verdict: CERTIFIED/);
  });

  test('writes reports/<run-id>/compliance.json, valid against its schema', () => {
    expect(reportDir).toMatch(/reports[/\\]apc-[0-9a-f]{6}$/);
    expect(complianceReportProblems(report)).toEqual([]);
    expect(report.verdict).toBe('certified');
    expect(report.target.reference).toBe(true);
    expect(report.target.instance).toMatchObject({ kind: 'process', node: process.version, database: 'memory' });
  });

  test('every requirement of all three interfaces ran: none failed, none untested', () => {
    const byStatus = (s: string) => report.requirements.filter((r) => r.status === s).map((r) => r.id);
    expect(byStatus('failed')).toEqual([]);
    expect(byStatus('untested')).toEqual([]);
    for (const prefix of ['CP-', 'AS-', 'EU-']) {
      expect(report.requirements.filter((r) => r.id.startsWith(prefix) && r.status === 'passed').length).toBeGreaterThan(10);
    }
    // Every agent-server and experiment-upload rule applies to the reference: each passed, or is excluded.
    const excluded = new Set(loadCatalogue().exclusions.flatMap((e) => (e.id ? [e.id] : [])));
    const wrong = report.requirements
      .filter((r) => !r.id.startsWith('CP-') && (excluded.has(r.id) ? r.status !== 'skipped' : r.status !== 'passed'))
      .map((r) => `${r.id} ${r.status}: ${r.failures[0]?.message ?? r.reason ?? ''}`);
    expect(wrong).toEqual([]);
    // Only exclusions and MAY rules whose tests said why they could not judge are skipped, and only capabilities of the other control-plane mode are missing.
    for (const r of report.requirements.filter((x) => x.status === 'skipped' && x.level !== 'MAY')) expect(r.reason).toMatch(/^excluded: /);
    for (const r of report.requirements.filter((x) => x.status === 'not-applicable')) {
      expect(r.needs?.every((n) => ['mode:self-hosted', 'source:external_container', 'endpoint:listeners'].includes(n)), `${r.id} ${r.needs}`).toBe(true);
    }
  });

  test('prints progress per suite file and a summary', () => {
    expect(stdout).toMatch(/✓ control-plane\/revision-triggers\s+\d+ passed/);
    expect(stdout).toMatch(/✓ agent-server\/sse-framing\s+\d+ passed/);
    expect(stdout).toMatch(/✓ experiment-upload\/time-window\s+\d+ passed/);
    expect(stdout).toMatch(/MUST \d+\/\d+/);
  });
});

describe('the plan of the default certification (apc certify --plan)', () => {
  test('is an upper bound of what the run created, per interface and kind', async () => {
    // Inside this process: the plan writes nothing and reads no working directory, and a child cost
    // node's start and the harness's imports again (about half a second of CPU).
    const plan = await apcHere(['certify', '--plan']);
    const printed = plan.stdout;
    expect(plan.code, printed + plan.stderr).toBe(0);
    const created = report.cost!.created;
    for (const [iface, kinds] of Object.entries(created)) {
      const line = new RegExp(`^\\s+${iface}\\s+\\d+ test\\(s\\); at most (.*)$`, 'm').exec(printed)?.[1];
      expect(line, printed).toBeDefined();
      const planned = Object.fromEntries(line!.split(', ').map((part) => part.split(' ').reverse()).map(([kind, n]) => [kind, Number(n)]));
      for (const [kind, n] of Object.entries(kinds)) expect(n, `${iface} ${kind}`).toBeLessThanOrEqual(planned[kind]);
    }
    // The run made deployments and revisions, and its report puts each kind beside its planned bound.
    expect(created['control-plane']?.deployments).toBeGreaterThan(0);
    for (const [iface, kinds] of Object.entries(created)) {
      for (const [kind, n] of Object.entries(kinds)) expect(n).toBeLessThanOrEqual(report.cost!.planned[iface as keyof typeof created]!.creates[kind as keyof typeof kinds]!);
    }
  }, 120_000);
});
