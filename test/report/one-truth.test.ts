// One run, one set of numbers: the terminal, compliance.json, compliance.md, compliance.html,
// junit.xml and the Allure results agree on how many requirements failed, were blocked, failed as
// the baseline expects, were blocked by such a failure, and did not apply. The run certifies the
// reference with two faults: one a baseline lists (it blocks three more rules), one new. The runs
// go inside this process on its kept suite worker (`certifyHere`, quiet: the terminal's verdict and
// counts lines stay), without node's start and a suite worker's again for each.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ComplianceReport, RequirementStatus } from '../../harness/report/compliance.ts';
import { certifyHere, type CertifyRun } from '../support/certify.ts';

const COMPARED: RequirementStatus[] = ['failed', 'blocked', 'expected-failure', 'blocked-by-expected-failure', 'not-applicable', 'passed'];
const LABELS: Record<string, RequirementStatus> = {
  failed: 'failed',
  blocked: 'blocked',
  'expected failure': 'expected-failure',
  'blocked by an expected failure': 'blocked-by-expected-failure',
  'not applicable': 'not-applicable',
  passed: 'passed',
};
type Tally = Partial<Record<RequirementStatus, number>>;

const work = mkdtempSync(join(tmpdir(), 'apc-one-truth-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `1 failed, 3 blocked, 2 not applicable` (terminal, compliance.md, compliance.html) as numbers. */
function fromCountsLine(line: string): Tally {
  const tally: Tally = {};
  for (const [, n, label] of line.matchAll(/(\d+) ([a-z ]+?)(?=,|;|$)/g)) if (LABELS[label!]) tally[LABELS[label!]!] = Number(n);
  return tally;
}

/** junit.xml: <failure> elements, and <skipped> elements by what their message says. */
function fromJunit(xml: string): Tally {
  const skipped = [...xml.matchAll(/<skipped message="([^"]*)"/g)].map((m) => m[1]!);
  const starting = (prefix: string) => skipped.filter((m) => m.startsWith(prefix)).length;
  const cases = (xml.match(/<testcase /g) ?? []).length;
  const failed = (xml.match(/<failure /g) ?? []).length;
  return {
    failed,
    blocked: starting('blocked: '),
    'expected-failure': starting('expected failure (baseline)'),
    'blocked-by-expected-failure': starting('blocked by an expected failure (baseline)'),
    'not-applicable': starting('not applicable: '),
    passed: cases - failed - skipped.length - (xml.match(/<error /g) ?? []).length,
  };
}

/** allure-results: results by Allure status, the skipped ones by what their message says. */
function fromAllure(dir: string): Tally {
  const results = readdirSync(dir)
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { status: string; statusDetails: { message?: string } });
  const skipped = (prefix: string) => results.filter((r) => r.status === 'skipped' && r.statusDetails.message?.startsWith(prefix)).length;
  return {
    failed: results.filter((r) => r.status === 'failed').length,
    blocked: skipped('blocked: '),
    'expected-failure': skipped('expected failure (baseline)'),
    'blocked-by-expected-failure': skipped('blocked by an expected failure (baseline)'),
    'not-applicable': skipped('not applicable: '),
    passed: results.filter((r) => r.status === 'passed').length,
  };
}

const pick = (tally: Tally): Tally => Object.fromEntries(COMPARED.map((s) => [s, tally[s] ?? 0]));

describe.each([
  { name: 'a baseline listing the known failure', listed: ['CP-REVL-002'], code: 1, verdict: 'not certified' },
  { name: 'a baseline listing both failures', listed: ['CP-REVL-002', 'CP-IMM-001'], code: 0, verdict: 'no regressions against the baseline' },
  { name: 'no baseline', listed: [], code: 1, verdict: 'not certified' },
])('one run rendered to every format, $name', ({ listed, code, verdict }) => {
  let run: CertifyRun;
  let report: ComplianceReport;
  const dir = join(work, `listed-${listed.length}`);
  beforeAll(async () => {
    const baseline = join(work, `baseline-${listed.length}.yaml`);
    writeFileSync(baseline, `expected-failures:\n${listed.map((id) => `  - id: ${id}\n    reason: known, tracked\n`).join('')}`);
    run = await certifyHere({
      args: [
        ...['--reference-fault', 'cp.revisions-oldest-first', '--reference-fault', 'cp.immutable-name-accepted'],
        ...['--requirements', 'CP-REVL-*,CP-IMM-*'],
        ...(listed.length > 0 ? ['--expected-failures', baseline] : []),
      ],
      reportDir: dir,
    });
    report = JSON.parse(readFileSync(join(dir, 'compliance.json'), 'utf8')) as ComplianceReport;
  }, 300_000);

  test('the terminal, compliance.md, compliance.html, junit.xml and Allure count what compliance.json counts', () => {
    expect(run.code, run.stderr).toBe(code);
    const truth = pick(report.counts.total);
    // The run has something in each status it compares, so agreeing on zeros proves nothing alone.
    const known = { 'expected-failure': listed.length, 'blocked-by-expected-failure': listed.length > 0 ? 3 : 0 };
    expect(truth).toMatchObject({ failed: 2 - listed.length, blocked: listed.length > 0 ? 0 : 3, ...known });
    expect(truth['not-applicable']).toBeGreaterThan(0);
    const terminal = /^counts: +(.*)$/m.exec(run.stdout)?.[1] ?? '';
    const markdown = / — (.*); \d+ requirements\.$/m.exec(readFileSync(join(dir, 'compliance.md'), 'utf8'))?.[1] ?? '';
    const html = /<p class="counts">(.*?); \d+ requirements\.<\/p>/.exec(readFileSync(join(dir, 'compliance.html'), 'utf8'))?.[1] ?? '';
    const formats: Record<string, Tally> = {
      terminal: pick(fromCountsLine(terminal)),
      'compliance.md': pick(fromCountsLine(markdown)),
      'compliance.html': pick(fromCountsLine(html)),
      'junit.xml': pick(fromJunit(readFileSync(join(dir, 'junit.xml'), 'utf8'))),
      allure: pick(fromAllure(join(dir, 'allure-results'))),
    };
    for (const [name, tally] of Object.entries(formats)) expect(tally, name).toEqual(truth);
  });

  test('the terminal, every format and the badge name the verdict', () => {
    const read = (file: string) => readFileSync(join(dir, file), 'utf8');
    expect(read('badge.svg')).toContain(`<title>apc: ${verdict} · `);
    expect(read('junit.xml')).toContain(`<property name="apc.verdict" value="${report.verdict}"/>`);
    expect(read('compliance.md')).toContain(`# Compliance report: ${verdict.toUpperCase()}`);
    expect(read('compliance.html')).toContain(`<h1>${verdict.toUpperCase()} `);
    expect(read(join('allure-results', 'environment.properties'))).toContain(`verdict=${report.verdict}`);
    expect(run.stdout).toContain(`verdict: ${verdict.toUpperCase()}`);
  });
});
