// A run of the reference with fault switches or platform-like behaviours on does not certify the
// reference as it ships: every human-readable format names what was on, beside the target. A run
// with neither says nothing of them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writeAllureResults } from '../../harness/report/allure.ts';
import { renderHtml } from '../../harness/report/html.ts';
import { renderJunit } from '../../harness/report/junit.ts';
import { renderMarkdown } from '../../harness/report/markdown.ts';
import { switchedOnLine, switchesOf } from '../../harness/report/switched-on.ts';
import { Progress } from '../../harness/run/progress.ts';
import type { ComplianceReport } from '../../harness/report/compliance.ts';
import { scratchDir } from '../support/scratch.ts';
import { sampleReport } from './support/sample-report.ts';

/** The environment.properties of the report's allure-results (Allure shows it on its overview page). */
function allureEnvironment(report: ComplianceReport): string {
  const dir = scratchDir('switched-on-allure');
  writeAllureResults(dir, report);
  return readFileSync(join(dir, 'allure-results', 'environment.properties'), 'utf8');
}

const NAMED = 'fault switches on: cp.no-auth, as.patch-merges; platform-like behaviours on: async-delete, throttle (time scale 0.1)';

function switchedOn(): ComplianceReport {
  const report = sampleReport();
  return {
    ...report,
    target: {
      ...report.target,
      reference: true,
      ...switchesOf(['cp.no-auth', 'as.patch-merges'], { behaviours: ['async-delete', 'throttle'], timeScale: 0.1 }),
    },
  };
}

function summary(report: ComplianceReport): string {
  let out = '';
  new Progress({ write: (text) => (out += text) }).summary(report, 'reports/x');
  return out;
}

describe('the switches a run turned on', () => {
  test('are named in one line, the time scale only when it is not 1', () => {
    expect(switchedOnLine(switchedOn().target)).toBe(NAMED);
    expect(switchedOnLine(switchesOf([], { behaviours: ['throttle'] }))).toBe('platform-like behaviours on: throttle');
    expect(switchedOnLine(switchesOf([], undefined))).toBeUndefined();
  });

  test('are on the Target line of compliance.md and compliance.html, a JUnit property, the Allure environment and the terminal summary', () => {
    const report = switchedOn();
    expect(
      renderMarkdown(report)
        .split('\n')
        .find((line) => line.startsWith('- **Target:**')),
    ).toContain(`; ${NAMED}`);
    expect(renderHtml(report)).toMatch(
      /<dt>Target<\/dt><dd>in-repo reference implementation, control plane mode hosted; fault switches on: cp.no-auth, as.patch-merges; platform-like/,
    );
    expect(renderJunit(report)).toContain(`<property name="apc.switched-on" value="${NAMED}"/>`);
    expect(summary(report)).toContain(`target:  the reference with ${NAMED}\n`);
    expect(allureEnvironment(report)).toContain(`\nswitched-on=${NAMED}\n`);
  });

  test('a run without them says nothing of them', () => {
    const report = sampleReport();
    for (const text of [renderMarkdown(report), renderHtml(report), renderJunit(report), summary(report), allureEnvironment(report)]) {
      expect(text).not.toContain('switches on');
      expect(text).not.toContain('switched-on');
      expect(text).not.toContain('behaviours on');
    }
  });
});
