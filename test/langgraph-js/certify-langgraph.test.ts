// The open-source LangGraph JS agent server, certified on every run against the baseline of its
// known deviations (expected-failures.yaml). The test fails both ways: a known deviation that is
// no longer found is a stale baseline entry (verdict error), and any other failure or block is a
// regression (verdict not-certified), whether the server changed or the harness did. Its report
// and the reference's make a compatibility matrix; `.ci/run` names a folder in APC_CI_MATRIX_DIR
// to keep the reports and the matrix there (and prints the matrix), instead of a temporary one.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Matrix } from '../../harness/report/matrix.ts';
import { apcHere } from '../support/apc-here.ts';
import { certifyHere } from '../support/certify.ts';
import { scratchDir } from '../support/scratch.ts';
import { sharedLangGraphServer, type SharedLangGraph } from './shared-server.ts';

const BASELINE = join(import.meta.dirname, 'expected-failures.yaml');
const KNOWN_DEVIATIONS = ['AS-ASST-002', 'AS-ASST-004', 'AS-DOCS-001'];

describe('the LangGraph JS agent server against its baseline', () => {
  // The run's one server, which the agent-client pact's verification uses too (shared-server.ts).
  let server: SharedLangGraph;
  const reports = process.env.APC_CI_MATRIX_DIR || scratchDir('langgraph-reports');
  const langgraphReport = join(reports, 'langgraph-js');
  beforeAll(async () => {
    server = await sharedLangGraphServer();
  }, 240_000);
  afterAll(() => server?.release());

  test('has no regressions: its known deviations, and nothing else, fail', async () => {
    const run = await certifyHere({
      args: ['--agent-server-url', server.url, '--interfaces', 'agent-server', '--expected-failures', BASELINE],
      reportDir: langgraphReport,
      timeoutMs: 300_000,
    });
    const report = run.report!;
    expect(report.verdict, `${run.stdout}${run.stderr}`).toBe('no-regressions');
    expect(run.code).toBe(0);
    expect(report.target.urls).toEqual({ 'agent-server': server.url });
    expect(report.requirements.filter((r) => r.status === 'expected-failure').map((r) => r.id)).toEqual(KNOWN_DEVIATIONS);
    expect(report.requirements.filter((r) => ['failed', 'blocked', 'untested', 'blocked-by-expected-failure'].includes(r.status))).toEqual([]);
    // A run that judged little would also have nothing new: most of the catalogue was judged and held.
    expect(report.requirements.filter((r) => r.status === 'passed').length).toBeGreaterThan(25);
  }, 320_000);

  // The other side: were the server (or the harness) to stop showing a deviation, its entry goes
  // stale. AS-THR-001, which the server follows, stands in for such an entry.
  test('a baseline entry the server no longer fails is stale: verdict error, exit 2', async () => {
    const baseline = join(scratchDir('langgraph-baseline'), 'stale.yaml');
    writeFileSync(baseline, 'expected-failures:\n  - id: AS-DOCS-001\n    reason: no /docs\n  - id: AS-THR-001\n    reason: stands in for a fixed deviation\n');
    const run = await certifyHere({ args: ['--agent-server-url', server.url, '--requirements', 'AS-DOCS-001,AS-THR-001', '--expected-failures', baseline] });
    expect(run.report?.verdict, `${run.stdout}${run.stderr}`).toBe('error');
    expect(run.code).toBe(2);
    expect(run.report?.errors.join('\n')).toContain('AS-THR-001');
  }, 120_000);

  test('the compatibility matrix of the reference and the LangGraph JS server shows where they differ', async () => {
    const work = reports;
    const reference = await certifyHere({ args: ['--interfaces', 'agent-server'], reportDir: join(work, 'reference') });
    expect(reference.report?.verdict, reference.stdout).toBe('certified');
    const run = await apcHere(['report', 'matrix', join(work, 'reference'), langgraphReport, '--out', join(work, 'matrix')]);
    expect(run.code, run.stderr).toBe(0);
    const matrix = JSON.parse(readFileSync(join(work, 'matrix', 'matrix.json'), 'utf8')) as Matrix;
    expect(matrix.targets.map((t) => [t.name, t.verdict])).toEqual([
      ['reference', 'certified'],
      ['langgraph-js', 'no-regressions'],
    ]);
    expect(matrix.targets[0]!.implementation).toContain('in-repo reference implementation');
    expect(matrix.targets[1]!.urls).toEqual({ 'agent-server': server.url });
    const statuses = (id: string) => matrix.requirements.find((r) => r.id === id)?.statuses;
    for (const id of KNOWN_DEVIATIONS) expect(statuses(id)).toEqual(['passed', 'expected-failure']);
    // Beside the deviations, only what the self-run server makes not applicable (its auth rules) differs.
    const other = matrix.differing.filter((id) => !KNOWN_DEVIATIONS.includes(id));
    for (const id of other) expect(statuses(id)).toEqual(['passed', 'not-applicable']);
    const markdown = readFileSync(join(work, 'matrix', 'matrix.md'), 'utf8');
    expect(markdown).toContain('| ≠ AS-DOCS-001 | MUST | ✓ passed | ≈ expected failure |');
    expect(readFileSync(join(work, 'matrix', 'matrix.html'), 'utf8')).toContain('<th>langgraph-js</th>');
  }, 240_000);
});
