// Allure results of a certification, written by allure-vitest into `<report>/allure-results`
// while the suites run (`apc report allure` renders them to HTML). Each result is labelled in the
// certifying process just before it is written: interface as epic, suite family as feature,
// requirement id as story, severity from the level. The failure's expected/seen, generated
// input, replay line and exchanges go into its details, and every string passes the redactor.
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import AllureVitestReporter, { type AllureVitestReporterConfig } from 'allure-vitest/reporter';
import type { Reporter, TestCase } from 'vitest/node';
import { LEVELS, notApplicableReason, type Catalogue, type Level, type Requirement } from '../catalogue.ts';
import type { FailureRecord } from '../conformance/failure.ts';
import { redactor } from '../redact.ts';
import { addTally, tallyLines, type TransientTally } from '../http/throttling.ts';

type Listener = NonNullable<AllureVitestReporterConfig['listeners']>[number];
type AllureResult = Parameters<NonNullable<Listener['beforeTestResultWrite']>>[0];

const SEVERITY: Record<Level, string> = { MUST: 'critical', SHOULD: 'normal', MAY: 'minor' };

const fence = (text: string, info = '') => {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${info}\n${text}\n${ticks}`;
};

function description(requirements: Requirement[], failures: FailureRecord[]): string {
  const parts = requirements.map((r) => `**${r.id}** (${r.level}, spec section ${r.section}): ${r.statement}`);
  for (const f of failures) {
    if (f.input !== undefined) parts.push(`Generated input${f.seed !== undefined ? ` (seed ${f.seed}${f.path ? `, path ${f.path}` : ''})` : ''}:`, fence(f.input, 'json'));
    if (f.repro) parts.push('Run this check again:', fence(f.repro, 'sh'));
    f.exchanges.forEach((e, i) => parts.push(`Exchange ${i + 1} of ${f.exchanges.length}:`, fence(`${e.curl}\n\n${e.response}`, 'sh')));
  }
  return parts.join('\n\n');
}

/** The result's family: its suite file name (`suites/control-plane/revisions.suite.ts` → revisions). */
function familyOf(result: AllureResult, first: Requirement): string {
  const file = /(?:^|\/)([^/#]+)\.suite\.ts/.exec(result.fullName ?? '')?.[1];
  return file ?? first.id.replace(/-\d{3}$/, '');
}

/** A vitest reporter: allure-vitest, with each result labelled and redacted before it is written. */
export function allureReporter(resultsDir: string, catalogue: Catalogue, environment: Record<string, string>): Reporter {
  const meta = new Map<string, { failures: FailureRecord[]; notApplicable?: string[]; transient?: TransientTally }>();
  const transient: TransientTally = {};
  const enrich = (result: AllureResult): void => {
    const ids = result.name?.split(' ').filter((word) => catalogue.byId.has(word)) ?? [];
    const requirements = ids.map((id) => catalogue.byId.get(id)!);
    const first = requirements[0];
    const recorded = meta.get(result.name ?? '');
    if (first) {
      const level = LEVELS.find((l) => requirements.some((r) => r.level === l))!;
      result.labels.push(
        { name: 'epic', value: first.interface },
        { name: 'feature', value: familyOf(result, first) },
        ...ids.map((id) => ({ name: 'story', value: id })),
        { name: 'severity', value: SEVERITY[level] },
        { name: 'tag', value: level },
        ...ids.map((id) => ({ name: 'requirement', value: id })),
      );
      result.description = description(requirements, recorded?.failures ?? []);
    }
    const failure = recorded?.failures[0];
    if (failure) {
      // A recorded failure is a finding about the target, as in compliance.json, not a broken test.
      result.status = 'failed' as AllureResult['status'];
      result.statusDetails = {
        ...result.statusDetails,
        message: failure.message,
        ...(failure.expected !== undefined ? { expected: failure.expected } : {}),
        ...(failure.seen !== undefined ? { actual: failure.seen } : {}),
      };
    }
    if (recorded?.notApplicable) result.statusDetails = { message: `not applicable: ${notApplicableReason(recorded.notApplicable)}` };
    // Throttling and transient errors the test waited out: the target's environment, shown beside the result.
    for (const line of tallyLines(recorded?.transient)) result.parameters.push({ name: 'target refusals waited out', value: line });
    Object.assign(result, redactor.value({ ...result }));
  };
  const allure = new AllureVitestReporter({ resultsDir, environmentInfo: environment, listeners: [{ beforeTestResultWrite: enrich }] });
  return {
    onInit: (vitest) => allure.onInit(vitest),
    onTestCaseResult(testCase: TestCase) {
      const m = testCase.meta();
      meta.set(testCase.name, { failures: m.failures ?? [], ...(m.notApplicable ? { notApplicable: m.notApplicable } : {}), ...(m.transient ? { transient: m.transient } : {}) });
      addTally(transient, m.transient);
    },
    onTestRunEnd: async (modules) => {
      await allure.onTestRunEnd(modules);
      // The environment file is written when the run starts; the run's waits are known only now.
      const file = join(resultsDir, 'environment.properties');
      const lines = tallyLines(transient).map((line) => `waited.${line.replace(/:.*/, '')} = ${line.replace(/^[^:]*: /, '')}`);
      // The file as written ends without a line break.
      if (existsSync(file) && lines.length > 0) appendFileSync(file, `\n${lines.join('\n')}\n`);
    },
  };
}
