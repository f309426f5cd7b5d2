// `apc report matrix`: one column per report folder, one row per requirement, in Markdown, HTML
// and JSON, from the folders' compliance.json alone. The reference and the LangGraph JS server's
// real reports go through it in test/langgraph-js/certify-langgraph.test.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ComplianceReport } from '../../harness/report/compliance.ts';
import type { Matrix } from '../../harness/report/matrix.ts';
import { apcHere } from '../support/apc-here.ts';
import { scratchDir } from '../support/scratch.ts';
import { HOSTILE, sampleReport } from './support/sample-report.ts';

function folder(parent: string, name: string, report: ComplianceReport): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'compliance.json'), JSON.stringify(report));
  return dir;
}

async function matrixOf(folders: string[]): Promise<{ out: string; stdout: string; json: Matrix; md: string; html: string }> {
  const out = join(scratchDir('matrix-out'), 'm');
  const run = await apcHere(['report', 'matrix', ...folders, '--out', out]);
  expect(run.code, run.stderr).toBe(0);
  const read = (file: string) => readFileSync(join(out, file), 'utf8');
  return { out, stdout: run.stdout, json: JSON.parse(read('matrix.json')) as Matrix, md: read('matrix.md'), html: read('matrix.html') };
}

describe('apc report matrix', () => {
  const work = scratchDir('matrix');
  const failing = folder(work, 'server-a', sampleReport({ runId: 'apc-aaaaaa' }));
  const baselined = folder(work, 'server-b', sampleReport({ runId: 'apc-bbbbbb', expected: ['CP-DEP-002', 'AS-RUN-002'] }));
  const partial = sampleReport({ runId: 'apc-cccccc' });
  const subset = folder(work, 'server-c', { ...partial, requirements: partial.requirements.filter((r) => r.interface === 'agent-server') });

  test('one column per report with its verdict, versions and profile; one status per requirement and target', async () => {
    const { json, md, html, stdout } = await matrixOf([failing, baselined, subset]);
    expect(json.targets.map((t) => [t.name, t.verdict, t.runId, t.harness, t.catalogue])).toEqual([
      ['server-a', 'not-certified', 'apc-aaaaaa', 'agent-platform-conformance 0.1.0', partial.catalogue.version],
      ['server-b', 'no-regressions', 'apc-bbbbbb', 'agent-platform-conformance 0.1.0', partial.catalogue.version],
      ['server-c', 'not-certified', 'apc-cccccc', 'agent-platform-conformance 0.1.0', partial.catalogue.version],
    ]);
    expect(json.targets[0]!.profile).toContain('control plane hosted');
    const row = (id: string) => json.requirements.find((r) => r.id === id)?.statuses;
    expect(row('CP-DEP-001')).toEqual(['passed', 'passed', null]);
    expect(row('CP-DEP-002')).toEqual(['failed', 'expected-failure', null]);
    expect(row('AS-RUN-002')).toEqual(['failed', 'expected-failure', 'failed']);
    expect(json.differing).toEqual(expect.arrayContaining(['CP-DEP-001', 'CP-DEP-002', 'AS-RUN-002']));
    expect(json.differing).not.toContain('AS-RUN-001');
    expect(md).toContain('| ≠ CP-DEP-002 | MUST | ✗ failed | ≈ expected failure | not selected |');
    expect(md).toContain('| Verdict | **not certified** | **no regressions against the baseline** | **not certified** |');
    expect(html).toContain('<td class="s expected-failure">expected failure</td>');
    expect(stdout).toContain('matrix.md');
  });

  test('the rows where the targets differ come first; the same folder name twice is numbered', async () => {
    const { json, md } = await matrixOf([failing, folder(join(work, 'again'), 'server-a', sampleReport({ runId: 'apc-dddddd' })), baselined]);
    expect(json.targets.map((t) => t.name)).toEqual(['server-a (1)', 'server-a (2)', 'server-b']);
    const rows = md.split('\n').filter((l) => /^\| (≠ )?[A-Z]{2}-/.test(l));
    const firstSame = rows.findIndex((l) => !l.startsWith('| ≠'));
    expect(firstSame).toBeGreaterThan(0);
    expect(rows.slice(firstSame).some((l) => l.startsWith('| ≠'))).toBe(false);
  });

  test("a target's text is escaped in Markdown and HTML", async () => {
    const hostile = folder(work, '<i>x|y', sampleReport({ runId: 'apc-eeeeee' }));
    const { md, html } = await matrixOf([hostile, failing]);
    expect(html).not.toContain('<i>x');
    expect(html).toContain('<th>&lt;i&gt;x|y</th>');
    expect(md).toContain('| &lt;i&gt;x\\|y |');
    expect(html).not.toContain(HOSTILE);
  });

  test('no folders, or a folder without a report: exit 2 saying what is expected', async () => {
    const none = await apcHere(['report', 'matrix']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('expected one or more report folders');
    const empty = await apcHere(['report', 'matrix', work]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('has no compliance.json');
  });
});
