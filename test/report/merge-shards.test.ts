// Sharding across machines: two real `apc certify --shard I/2` runs (each starting its own
// reference implementation, one fault switched on), merged by `apc report merge` into one
// report with one verdict; folders of another seed are refused. The commands run inside this
// process (test/support/apc-here.ts); the shards on one suite worker, kept from the first shard's
// run to the second's (`certifyHere`, keptSuiteWorkers), which is all their few files need.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ComplianceReport } from '../../harness/report/compliance.ts';
import { complianceReportProblems } from '../../schemas/compliance-report.ts';
import { apcHere } from '../support/apc-here.ts';
import { certifyHere, keptSuiteWorkers } from '../support/certify.ts';

const work = mkdtempSync(join(tmpdir(), 'apc-merge-test-'));
const shardDirs = [join(work, 'shard-1'), join(work, 'shard-2')];
const SLICE = 'AS-THR-*,AS-GRAPH-*';
// The reference refuses a graph name as assistant id: the AS-GRAPH rules fail.
const FAULT = 'as.graph-name-refused';
let reports: ComplianceReport[];
const suites = keptSuiteWorkers();

const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, 'compliance.json'), 'utf8')) as ComplianceReport;
const allureFiles = (dir: string) => readdirSync(join(dir, 'allure-results')).filter((f) => f.endsWith('-result.json'));

beforeAll(async () => {
  await Promise.all(
    shardDirs.map((dir, i) =>
      certifyHere({ args: ['--interfaces', 'agent-server', '--requirements', SLICE, '--shard', `${i + 1}/2`, '--seed', '77', '--runs', '5', '--reference-fault', FAULT], reportDir: dir }, suites),
    ),
  );
  reports = shardDirs.map(readReport);
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('apc certify --shard and apc report merge', () => {
  test('the shards are disjoint slices of the selection', () => {
    const [a, b] = reports.map((r) => r.requirements.map((x) => x.id));
    expect(a!.length).toBeGreaterThan(0);
    expect(b!.length).toBeGreaterThan(0);
    expect(a!.filter((id) => b!.includes(id))).toEqual([]);
    expect(reports.map((r) => r.shard)).toEqual([{ index: 1, count: 2 }, { index: 2, count: 2 }]);
  });

  test('merging them gives one report in every format, with one verdict over every requirement', async () => {
    const out = join(work, 'merged');
    const merge = await apcHere(['report', 'merge', ...shardDirs, '--reports', out]);
    const merged = readReport(out);
    const all = reports.flatMap((r) => r.requirements);
    expect(merge.code, merge.stderr).toBe(1);
    expect(complianceReportProblems(merged)).toEqual([]);
    expect(merged.requirements.map((r) => r.id).sort()).toEqual(all.map((r) => r.id).sort());
    expect(merged).toMatchObject({ verdict: 'not-certified', seed: 77, mergedFrom: reports.map((r) => r.runId) });
    expect(merged.shard).toBeUndefined();
    expect(merged.requirements.find((r) => r.id === 'AS-GRAPH-001')?.status).toBe('failed');
    expect(merged.counts.total.failed).toBe(all.filter((r) => r.status === 'failed').length);
    for (const file of ['compliance.md', 'compliance.html', 'junit.xml', 'badge.svg']) expect(existsSync(join(out, file)), file).toBe(true);
    expect(readFileSync(join(out, 'compliance.md'), 'utf8')).toContain(`merged from \`${reports[0]!.runId}\`, \`${reports[1]!.runId}\``);
    expect(allureFiles(out).length).toBe(allureFiles(shardDirs[0]!).length + allureFiles(shardDirs[1]!).length);
    expect(merge.stdout).toContain('verdict: NOT CERTIFIED');
    expect(merge.stdout).toMatch(/failed: {2}.*AS-GRAPH-001 \(MUST\)/);
  });

  test('a folder of another seed is refused with exit code 2', async () => {
    const other = join(work, 'other-seed');
    cpSync(shardDirs[1]!, other, { recursive: true });
    writeFileSync(join(other, 'compliance.json'), JSON.stringify({ ...readReport(other), seed: 78 }));
    const merge = await apcHere(['report', 'merge', shardDirs[0]!, other, '--reports', join(work, 'refused')]);
    expect(merge.code).toBe(2);
    expect(merge.stderr).toContain(`${other} ran with seed 78, ${shardDirs[0]} with seed 77: shards must share one seed.`);
    expect(existsSync(join(work, 'refused'))).toBe(false);
  });

  test('apc help report documents both subcommands; an unknown one exits 2', async () => {
    const help = await apcHere(['help', 'report']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('apc report merge DIR... [--reports OUT]');
    expect(help.stdout).toContain('apc report allure [DIR]');
    const unknown = await apcHere(['report', 'combine']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown subcommand "combine"');
  });

  test('a missing shard or a folder that is no report is refused', async () => {
    const missing = await apcHere(['report', 'merge', shardDirs[0]!]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Shard(s) 2/2 missing');
    const none = await apcHere(['report', 'merge', shardDirs[0]!, work]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`${work}: expected a report folder written by \`apc certify\`, but it has no compliance.json.`);
  });
});
