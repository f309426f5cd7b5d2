// Every format says the same of a blocked requirement (issue 37): its root cause, and what its
// test saw against its own statement before it stopped, as "also seen", marked not judged.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { writeAllureResults } from '../../harness/report/allure.ts';
import type { ComplianceReport } from '../../harness/report/compliance.ts';
import { renderHtml } from '../../harness/report/html.ts';
import { renderJunit } from '../../harness/report/junit.ts';
import { renderMarkdown } from '../../harness/report/markdown.ts';
import { Progress } from '../../harness/run/progress.ts';
import { complianceReportProblems } from '../../schemas/compliance-report.ts';
import { sampleReport } from './support/sample-report.ts';
import { scratchDir } from '../support/scratch.ts';

const SEEN = 'POST /assistants/a/latest {"version": 2} answered the assistant at version 1.';

/** The sample report with CP-DEP-003 blocked by CP-DEP-002, having seen something against its own rule first. */
function withBlocked(): ComplianceReport {
  const report = sampleReport();
  const root = report.requirements.find((r) => r.id === 'CP-DEP-002')!;
  root.failures.push({ ...root.failures[0]!, message: 'The step this test needed broke CP-DEP-002.', foundIn: 'CP-DEP-003 a test' });
  const blocked = report.requirements.find((r) => r.id === 'CP-DEP-003')!;
  Object.assign(blocked, { status: 'blocked', blockedBy: ['CP-DEP-002'], reason: 'not judged', alsoSeen: [{ message: SEEN, seen: '{"version":1}' }] });
  return report;
}

test('compliance.json carries also-seen and the test that met a failure under its root cause, valid against its schema', () => {
  expect(complianceReportProblems(withBlocked())).toEqual([]);
});

test("compliance.md lists what blocked tests saw, not judged, and which test met a root cause's failure", () => {
  const md = renderMarkdown(withBlocked());
  expect(md).toContain('| CP-DEP-003 | SHOULD | CP-DEP-002 |');
  expect(md).toMatch(/- CP-DEP-003: also seen \(not judged\): POST \/assistants\/a\/latest .*answered the assistant at version 1\. Seen: \{"version":1\}/);
  expect(md).toContain('_met by the test "CP-DEP-003 a test"_');
});

test('compliance.html, junit.xml and allure say it too', () => {
  const report = withBlocked();
  expect(renderHtml(report)).toMatch(/<div class="note also-seen">also seen \(not judged\): POST \/assistants\/a\/latest/);
  expect(renderJunit(report)).toMatch(
    /<skipped message="blocked: not judged, its test stopped at a failure explained by CP-DEP-002 · also seen \(not judged\): POST/,
  );
  const dir = scratchDir('allure-also-seen');
  writeAllureResults(dir, report);
  const out = join(dir, 'allure-results');
  const results = readdirSync(out)
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => JSON.parse(readFileSync(join(out, f), 'utf8')) as { name: string; status: string; statusDetails?: { message?: string } });
  const blocked = results.find((r) => r.name.startsWith('CP-DEP-003'))!;
  expect(blocked.status).toBe('skipped');
  expect(blocked.statusDetails?.message).toMatch(/blocked: .*CP-DEP-002 · also seen \(not judged\)/);
});

test('the terminal summary prints it under the blocked list', () => {
  let text = '';
  new Progress({ write: (t) => void (text += t) }).summary(withBlocked(), '/reports/x');
  expect(text).toMatch(/blocked: CP-DEP-003 \(by CP-DEP-002\)/);
  expect(text).toMatch(/CP-DEP-003 also seen \(not judged\): POST/);
});
