// Which consumers rely on which requirement: read from the pact files' `requirements` comments,
// printed by `apc contracts matrix`, and counted in a certification's report.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.ts';
import { main } from '../../harness/cli/main.ts';
import { readPactDir } from '../../harness/pact/pact-files.ts';
import { addConsumerCounts, relianceOf, renderMatrix } from '../../harness/pact/reliance.ts';
import { renderHtml } from '../../harness/report/html.ts';
import { renderJunit } from '../../harness/report/junit.ts';
import { renderMarkdown } from '../../harness/report/markdown.ts';
import { complianceReportProblems } from '../../schemas/compliance-report.ts';
import { sampleReport } from '../report/support/sample-report.ts';

const interaction = (description: string, requirements: string) => ({ type: 'Synchronous/HTTP', description, comments: { requirements } });
const pact = (consumer: string, provider: string, interactions: unknown[]) => ({ consumer: { name: consumer }, provider: { name: provider }, interactions });

describe('reliance of consumers on requirements', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'apc-reliance-'));
    writeFileSync(join(dir, 'a.json'), JSON.stringify(pact('deploy-pipeline', 'control-plane', [interaction('create', 'CP-CREATE-001 CP-DEP-002'), interaction('read', 'CP-READ-001')])));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(pact('deploy-pipeline', 'control-plane-self-hosted', [interaction('create', 'CP-CREATE-001')])));
    writeFileSync(join(dir, 'c.json'), JSON.stringify(pact('release-bot', 'control-plane', [interaction('create', 'CP-CREATE-001 CP-NOPE-001')])));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the matrix lists each requirement with its consumers, and ids the catalogue lacks apart', () => {
    const text = renderMatrix(relianceOf(readPactDir(dir)), loadCatalogue());
    expect(text).toContain('CP-CREATE-001  MUST            2  deploy-pipeline (control-plane, control-plane-self-hosted), release-bot (control-plane)');
    expect(text).toContain('CP-READ-001    MUST            1  deploy-pipeline (control-plane)');
    expect(text).toMatch(/not in requirements\/\*\.yaml[^]*CP-NOPE-001 +release-bot \(control-plane\)/);
  });

  test('apc contracts matrix prints it', async () => {
    let out = '';
    const code = await main(['contracts', 'matrix', '--pacts', dir], { out: { write: (t) => void (out += t) }, err: { write: (t) => void (out += t) }, env: {} });
    expect(code).toBe(0);
    expect(out).toContain('CP-CREATE-001');
  });

  test('a report counts the consumers per requirement, and shows it on failures and in JUnit', () => {
    const report = sampleReport();
    addConsumerCounts(report.requirements, dir);
    const failed = report.requirements.find((r) => r.id === 'CP-DEP-002')!;
    expect(failed.consumers).toBe(1);
    expect(report.requirements.find((r) => r.id === 'AS-RUN-001')!.consumers).toBeUndefined();
    expect(complianceReportProblems(report)).toEqual([]);
    expect(renderMarkdown(report)).toContain('1 Pact consumer(s) rely on it');
    expect(renderJunit(report)).toContain('<property name="consumers" value="1"/>');
    expect(renderHtml(report)).toContain('1 Pact consumer(s) rely on it');
  });

  test('without pact files a report has no counts', () => {
    const report = sampleReport();
    addConsumerCounts(report.requirements, join(dir, 'missing'));
    expect(report.requirements.every((r) => r.consumers === undefined)).toBe(true);
  });
});
