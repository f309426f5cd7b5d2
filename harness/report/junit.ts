// junit.xml for CI systems: one <testcase> per requirement, one <testsuite> per interface.
//   passed            → a plain testcase
//   failed            → <failure type="MUST|SHOULD|MAY"> (a failed SHOULD or MAY is a failure too;
//                       the verdict, in the exit code and the `apc.verdict` property, ignores it)
//   blocked           → <skipped message="blocked: …">: never judged; the blocking requirement fails
//   expected-failure  → <skipped message="expected failure (baseline): …"> with the failure text in
//                       <system-out>: the run does not fail on it, and it does not count as passed
//   blocked-by-expected-failure → <skipped message="blocked by an expected failure (baseline): …">
//   not-applicable    → <skipped message="not applicable: <what the profile does not declare>">
//   skipped           → <skipped message="excluded: …">
//   untested          → <error type="untested">: a MUST without a test fails the verdict
// Problems of the run itself (a stale baseline entry, a suite that did not load) are <error>s
// of an extra testsuite named "apc run", so CI shows why the verdict is "error".
import type { FailureRecord } from '../conformance/failure.ts';
import type { ComplianceReport, RequirementResult } from './compliance.ts';
import { escapeXml, escapeXmlAttribute as attr } from './escape.ts';
import { reproductionLines } from './reproduction.ts';
import { switchedOnLine } from './switched-on.ts';
import { countsLine, interfacesOf } from './scores.ts';
import { alsoSeenLines } from './also-seen.ts';

function failureText(report: ComplianceReport, f: FailureRecord): string {
  const lines = [f.message];
  if (f.expected !== undefined) lines.push(`expected: ${f.expected}`);
  if (f.seen !== undefined) lines.push(`seen: ${f.seen}`);
  if (f.input !== undefined) lines.push(`input: ${f.input}`);
  if (f.seed !== undefined) lines.push(`seed: ${f.seed}${f.path ? ` (path ${f.path})` : ''}`);
  for (const line of reproductionLines(report, f)) lines.push(`${line.label} ${line.text}`);
  for (const e of f.exchanges) lines.push('', e.curl, e.response);
  return lines.join('\n');
}

function properties(pairs: [string, string | number | undefined][], indent: string): string {
  const items = pairs
    .filter((p): p is [string, string | number] => p[1] !== undefined)
    .map(([name, value]) => `${indent}  <property name="${attr(name)}" value="${attr(String(value))}"/>`);
  return `${indent}<properties>\n${items.join('\n')}\n${indent}</properties>`;
}

function outcome(report: ComplianceReport, r: RequirementResult): string {
  const all = r.failures.map((f) => failureText(report, f)).join('\n\n');
  switch (r.status) {
    case 'failed':
      return `      <failure message="${attr(r.failures[0]?.message ?? 'failed')}" type="${r.level}">${escapeXml(all)}</failure>`;
    case 'blocked':
      return `      <skipped message="${attr([`blocked: not judged, its test stopped at a failure explained by ${(r.blockedBy ?? []).join(', ')}`, ...alsoSeenLines(r)].join(' · '))}"/>`;
    case 'expected-failure':
      return `      <skipped message="${attr(`expected failure (baseline): ${r.reason ?? ''}`)}"/>\n      <system-out>${escapeXml(all)}</system-out>`;
    case 'blocked-by-expected-failure':
      return `      <skipped message="${attr(`blocked by an expected failure (baseline): not judged, its test stopped at the expected failure of ${(r.blockedBy ?? []).join(', ')}`)}"/>`;
    case 'not-applicable':
      return `      <skipped message="${attr(`not applicable: ${r.reason ?? `needs ${(r.needs ?? []).join(', ')}`}`)}"/>`;
    case 'skipped':
      return `      <skipped message="${attr(r.reason ?? 'skipped')}"/>`;
    case 'untested':
      return `      <error message="${attr(r.reason ?? 'no conformance test names this requirement')}" type="untested"/>`;
    case 'passed':
      return '';
  }
}

function testcase(report: ComplianceReport, r: RequirementResult): string {
  const props = properties(
    [
      ['requirement', r.id],
      ['level', r.level],
      ['section', r.section],
      ['status', r.status],
      ['tests', r.tests.length > 0 ? r.tests.join(' | ') : undefined],
      ['consumers', r.consumers],
    ],
    '      ',
  );
  const body = outcome(report, r);
  return `    <testcase name="${attr(`${r.id} ${r.statement}`)}" classname="${attr(`${r.interface}.${r.level}`)}">\n${props}${body ? `\n${body}` : ''}\n    </testcase>`;
}

interface Tally {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function tally(list: RequirementResult[]): Tally {
  return {
    tests: list.length,
    failures: list.filter((r) => r.status === 'failed').length,
    errors: list.filter((r) => r.status === 'untested').length,
    skipped: list.filter((r) => r.status !== 'passed' && r.status !== 'failed' && r.status !== 'untested').length,
  };
}

const counts = (t: Tally) => `tests="${t.tests}" failures="${t.failures}" errors="${t.errors}" skipped="${t.skipped}"`;

export function renderJunit(report: ComplianceReport): string {
  const seconds = Math.max(0, (Date.parse(report.endedAt) - Date.parse(report.startedAt)) / 1000).toFixed(3);
  const runProps = properties(
    [
      ['apc.verdict', report.verdict],
      ['apc.verdict-reason', report.verdictReason],
      ['apc.must-score', `${report.mustScore.passed}/${report.mustScore.applicable}`],
      ['apc.counts', countsLine(report.counts.total)],
      ['apc.run-id', report.runId],
      ['apc.seed', report.seed],
      ['apc.switched-on', switchedOnLine(report.target)],
      ['apc.harness-version', report.harness.version],
      ['apc.catalogue-version', report.catalogue.version],
      ['apc.catalogue-hash', report.catalogue.hash],
      ...(Object.entries(report.transient ?? {}).flatMap(([name, c]) => [
        [`apc.${name}.throttled`, c.throttled],
        [`apc.${name}.unavailable`, c.unavailable],
        [`apc.${name}.gave-up`, c.gaveUp],
        [`apc.${name}.waited-ms`, c.waitedMs],
      ]) as [string, string | number][]),
    ],
    '    ',
  );
  const suites = interfacesOf(report).map((iface) => {
    const list = report.requirements.filter((r) => r.interface === iface);
    const url = report.target.urls[iface];
    return `  <testsuite name="${attr(iface)}" ${counts(tally(list))} timestamp="${attr(report.startedAt)}"${url ? ` hostname="${attr(url)}"` : ''}>\n${runProps}\n${list.map((r) => testcase(report, r)).join('\n')}\n  </testsuite>`;
  });
  if (report.errors.length > 0) {
    const cases = report.errors.map(
      (e, i) => `    <testcase name="run error ${i + 1}" classname="apc.run">\n      <error message="${attr(e)}" type="run-error"/>\n    </testcase>`,
    );
    suites.push(`  <testsuite name="apc run" tests="${report.errors.length}" failures="0" errors="${report.errors.length}" skipped="0" timestamp="${attr(report.startedAt)}">\n${cases.join('\n')}\n  </testsuite>`);
  }
  const total = tally(report.requirements);
  total.tests += report.errors.length;
  total.errors += report.errors.length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${attr(`apc certify ${report.runId}`)}" ${counts(total)} time="${seconds}" timestamp="${attr(report.startedAt)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
