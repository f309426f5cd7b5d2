// The report formats rendered from a report built through the real model, with hostile text in
// every field a target controls. The same formats from a real certification run, and the page
// in a browser, are checked in certify-report.test.ts.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { renderBadge } from '../../harness/report/badge.ts';
import type { ComplianceReport } from '../../harness/report/compliance.ts';
import { escapeHtml, escapeXml } from '../../harness/report/escape.ts';
import { renderHtml } from '../../harness/report/html.ts';
import { SCRIPT, STYLE } from '../../harness/report/html-assets.ts';
import { renderJunit } from '../../harness/report/junit.ts';
import { renderMarkdown } from '../../harness/report/markdown.ts';
import { mergeReports } from '../../harness/report/merge.ts';
import { ReportError } from '../../harness/report/read.ts';
import { replayPlan } from '../../harness/report/replay.ts';
import { writeReports } from '../../harness/report/write.ts';
import { complianceReportProblems } from '../../schemas/compliance-report.ts';
import { CATALOGUE, HOSTILE, sampleReport } from './support/sample-report.ts';
import { scratchDir } from '../support/scratch.ts';

/** Markdown with fenced blocks and code spans removed: what a renderer treats as markup. */
function prose(markdown: string): string {
  return markdown.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '').replace(/(`+)[^`][\s\S]*?\1/g, '');
}

describe('compliance.json schema', () => {
  test('a report built by the model validates', () => {
    expect(complianceReportProblems(sampleReport())).toEqual([]);
    expect(complianceReportProblems(sampleReport({ expected: ['CP-DEP-002'], shard: { index: 1, count: 2 } }))).toEqual([]);
  });

  test('a wrong document is refused with the path of each problem', () => {
    const report = sampleReport() as unknown as Record<string, unknown> & { requirements: Record<string, unknown>[] };
    report.requirements[0]!.status = 'great';
    delete report.verdict;
    const problems = complianceReportProblems(report);
    expect(problems).toContain("/: must have required property 'verdict'");
    expect(problems.some((p) => p.startsWith('/requirements/0/status'))).toBe(true);
  });

  test('a profile that still holds a key is refused', () => {
    const report = sampleReport();
    (report.target.profile as { apiKey?: string }).apiKey = 'real-key-value';
    expect(complianceReportProblems(report).some((p) => p.startsWith('/target/profile/apiKey'))).toBe(true);
  });
});

describe('compliance.md', () => {
  const md = renderMarkdown(sampleReport());

  test('starts with the verdict, then scores, failures, the matrix and the rules that did not apply', () => {
    expect(md.split('\n')[0]).toBe('# Compliance report: NOT CERTIFIED');
    expect(md).toContain('**Verdict: NOT CERTIFIED** (MUST 3/4 · 1 MUST n/a). 1 MUST requirement(s) failed: CP-DEP-002.');
    expect(md).toContain('**MUST 3/4 (75%) · SHOULD 1/1 (100%) · MAY 0/1 (0%)**');
    const order = ['## Scores', '## Failed requirements (2)', '## Requirement matrix', '## Not applicable (1)'].map((h) => md.indexOf(h));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(md).toMatch(/\| control-plane \| 1\/2 \(50%\) \| 1\/1 \(100%\) \| — \| 1 \|/);
  });

  test('a failure shows its message, expected and seen, the last curl line with its response, and the replay line', () => {
    const section = md.slice(md.indexOf('### ✗ CP-DEP-002'), md.indexOf('### ✗ AS-RUN-002'));
    expect(section).toContain('Expected: `"apc-run-deployment"`');
    expect(section).toContain("curl -sS -X POST 'http://127.0.0.1:8100/v2/deployments'");
    expect(section).toContain('Run this check again:\n\n```sh\napc certify --control-plane-url http://127.0.0.1:8100 --seed 42 --requirements CP-DEP-002\n```');
    expect(section).toContain('Generated input (seed -12345, path 3:1)');
    // MUST failures come before MAY ones.
    expect(md.indexOf('### ✗ CP-DEP-002')).toBeLessThan(md.indexOf('### ✗ AS-RUN-002'));
  });

  test('target text never becomes markup, and code blocks hold any backtick run', () => {
    expect(prose(md)).not.toMatch(/<[a-z]/i);
    expect(md).toContain('&lt;script&gt;');
    expect(md).toContain('````text\n' + HOSTILE + '\n````');
  });

  test('every matrix row has nine cells, whatever pipes the text holds', () => {
    const rows = md.slice(md.indexOf('## Requirement matrix'), md.indexOf('## Not applicable')).split('\n').filter((l) => l.startsWith('| '));
    expect(rows).toHaveLength(1 + CATALOGUE.requirements.length);
    for (const row of rows) expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(11);
    expect(md).toContain('| CP-SRC-001 | MUST | `source:gitforge` |');
  });
});

describe('junit.xml', () => {
  test('one testcase per requirement: failures, skips and the verdict as a property', () => {
    const xml = renderJunit(sampleReport());
    expect(xml.match(/<testcase /g)).toHaveLength(CATALOGUE.requirements.length);
    expect(xml).toContain('<failure message="Deployment name came back changed: &lt;script&gt;');
    expect(xml.match(/<failure /g)).toHaveLength(2);
    expect(xml).toContain('type="MAY"');
    expect(xml).toContain('<skipped message="not applicable: source gitforge not declared in the profile (sources)"/>');
    expect(xml).toContain('<skipped message="excluded: not observable over HTTP"/>');
    expect(xml).toContain('<property name="apc.verdict" value="not-certified"/>');
    expect(xml).toMatch(/<testsuites name="apc certify apc-sample" tests="8" failures="2" errors="0" skipped="2" time="102.000"/);
  });

  test('control characters and lone surrogates never reach the XML', () => {
    const xml = renderJunit(sampleReport());
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(xml).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(xml).toContain('\\u0007');
    expect(escapeXml('a\tb\nc 😀')).toBe('a\tb\nc 😀');
  });

  test('an expected failure is skipped with the baseline reason; a stale entry is an error of the run', () => {
    const report = sampleReport({ expected: ['CP-DEP-002', 'CP-DEP-001'] });
    const xml = renderJunit(report);
    expect(xml).toContain('<skipped message="expected failure (baseline): known: &lt;script&gt;');
    expect(xml).toContain('<property name="status" value="expected-failure"/>');
    expect(xml).toContain('<testsuite name="apc run" tests="1" failures="0" errors="1"');
    expect(xml).toContain('CP-DEP-001 is listed in the expected-failures file but passed');
  });
});

describe('badge.svg', () => {
  test('states the verdict and the MUST score, coloured by verdict', () => {
    const failed = renderBadge(sampleReport());
    expect(failed).toContain('<title>apc: not certified · MUST 3/4 · 1 MUST n/a</title>');
    expect(failed).toContain('fill="#cf222e"');
    // A known failure is never certified: the badge names what the run showed, and is not green.
    const known = renderBadge(sampleReport({ expected: ['CP-DEP-002'] }));
    expect(known).toContain('<title>apc: no regressions against the baseline · MUST 3/4 · 1 MUST n/a</title>');
    expect(known).toContain('fill="#9a6700"');
    const certified = renderBadge({ ...sampleReport(), verdict: 'certified' });
    expect(certified).toContain('<title>apc: certified · MUST 3/4 · 1 MUST n/a</title>');
    expect(certified).toContain('fill="#2da44e"');
  });
});

describe('compliance.html', () => {
  const html = renderHtml(sampleReport());

  test('is one page that loads nothing: only its own style and script run, allowed by hash', () => {
    expect(html).not.toMatch(/\b(?:src|href)="(?!#)/);
    expect(html.match(/<script>/g)).toHaveLength(1);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(csp).toContain("default-src 'none'");
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(csp).toContain(`script-src ${hash(SCRIPT)}`);
    expect(csp).toContain(`style-src ${hash(STYLE)}`);
  });

  test('escapes every text of the target', () => {
    expect(html).not.toContain('<img');
    expect(html).toContain(escapeHtml(HOSTILE));
    expect(html.match(/<tr id="req-/g)).toHaveLength(CATALOGUE.requirements.length);
    expect(html).toContain('data-interface="control-plane" data-level="MUST" data-status="failed"');
  });
});

describe('merging shard reports', () => {
  const shard = (index: number, ids: string[], seed = 42) => {
    const report = sampleReport({ seed, shard: { index, count: 2 }, runId: `apc-shard${index}` });
    return { dir: `shard-${index}`, report: { ...report, requirements: report.requirements.filter((r) => ids.includes(r.id)) } };
  };
  const ids = CATALOGUE.requirements.map((r) => r.id);

  test('two shards become the full report with one verdict', () => {
    const merged = mergeReports([shard(1, ids.filter((_, i) => i % 2 === 0)), shard(2, ids.filter((_, i) => i % 2 === 1))], { runId: 'merge-1', order: ids });
    const full = sampleReport();
    expect(merged.requirements.map((r) => r.id)).toEqual(ids);
    expect(merged.counts).toEqual(full.counts);
    expect(merged.verdict).toBe(full.verdict);
    expect(merged.mustScore).toEqual(full.mustScore);
    expect(merged.mergedFrom).toEqual(['apc-shard1', 'apc-shard2']);
    expect(merged.shard).toBeUndefined();
    expect(complianceReportProblems(merged)).toEqual([]);
  });

  test('a requirement in several reports keeps its failure', () => {
    const a = shard(1, ids);
    const b = shard(2, ids);
    b.report.requirements = b.report.requirements.map((r) => (r.id === 'CP-DEP-002' ? { ...r, status: 'passed' as const, failures: [] } : r));
    const merged = mergeReports([b, a], { runId: 'merge-2' });
    expect(merged.requirements.find((r) => r.id === 'CP-DEP-002')).toMatchObject({ status: 'failed', failures: [expect.objectContaining({ seed: -12345 })] });
  });

  test('reports of different seeds, catalogues or an incomplete split are refused', () => {
    expect(() => mergeReports([shard(1, ids), shard(2, ids, 7)], { runId: 'm' })).toThrow(/shard-2 ran with seed 7, shard-1 with seed 42: shards must share one seed/);
    const other = shard(2, ids);
    other.report = { ...other.report, catalogue: { ...other.report.catalogue, hash: 'b'.repeat(64) } };
    expect(() => mergeReports([shard(1, ids), other], { runId: 'm' })).toThrow(/catalogue 0\.1\.0 \(sha256 bbbbbbbbbbbb\).*same catalogue/);
    expect(() => mergeReports([shard(1, ids)], { runId: 'm' })).toThrow(ReportError);
    expect(() => mergeReports([shard(1, ids)], { runId: 'm' })).toThrow(/Shard\(s\) 2\/2 missing/);
  });
});

describe('replay plan', () => {
  test('takes the failed requirements, seed, runs and target of a report folder', () => {
    const dir = scratchDir('replay');
    writeReports(dir, sampleReport({ seed: 99 }));
    const plan = replayPlan(dir, CATALOGUE);
    expect(plan).toMatchObject({ runId: 'apc-sample', ids: ['CP-DEP-002', 'AS-RUN-002'], interfaces: ['control-plane', 'agent-server'], reference: false });
    expect(plan.profile).toMatchObject({ seed: 99, runs: 25, urls: { 'control-plane': 'http://127.0.0.1:8100', 'agent-server': 'http://127.0.0.1:8123' } });
    expect(plan.profile.apiKey).toBeUndefined();
  });

  test('a folder without compliance.json, or with a broken one, is refused with what to do', () => {
    const dir = scratchDir('replay');
    expect(() => replayPlan(dir, CATALOGUE)).toThrow(/has no compliance\.json/);
    writeFileSync(join(dir, 'compliance.json'), '{"schemaVersion": 1}');
    expect(() => replayPlan(dir, CATALOGUE)).toThrow(/does not match the compliance report schema/);
    writeFileSync(join(dir, 'compliance.json'), readFileSync(join(dir, 'compliance.json'), 'utf8').slice(0, 5));
    expect(() => replayPlan(dir, CATALOGUE)).toThrow(/not valid JSON/);
  });
});

describe('throttling and transient errors the run waited out', () => {
  const report: ComplianceReport = {
    ...sampleReport(),
    transient: { 'control-plane': { throttled: 12, unavailable: 3, gaveUp: 1, waitedMs: 14_200 } },
  };
  const line = 'control-plane: 12 answer(s) 429 (throttled), 3 answer(s) 503 (transient), waited 14.2 s; 1 request(s) still refused when the harness gave up';

  test('are in compliance.json (valid), compliance.md, compliance.html and junit.xml', () => {
    expect(complianceReportProblems(report)).toEqual([]);
    expect(renderMarkdown(report)).toContain(line);
    expect(renderHtml(report)).toContain(escapeHtml(line));
    const junit = renderJunit(report);
    expect(junit).toContain('<property name="apc.control-plane.throttled" value="12"/>');
    expect(junit).toContain('<property name="apc.control-plane.waited-ms" value="14200"/>');
  });

  test('a run that never met them says nothing of them', () => {
    expect(renderMarkdown(sampleReport())).not.toContain('waited out');
  });
});
