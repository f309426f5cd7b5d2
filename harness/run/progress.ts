// Terminal progress of a certification: a line per suite file as it finishes, each failure as
// it happens, then the verdict. Everything printed passes the redactor.
import { tallyLines } from '../http/throttling.ts';
import { costLines } from '../conformance/created.ts';
import { learnedLines } from '../conformance/learned.ts';
import type { Level } from '../catalogue.ts';
import { redactor as processRedactor, type Redactor } from '../redact.ts';
import { failureLine } from '../conformance/failure.ts';
import type { ComplianceReport, TestOutcome } from '../report/compliance.ts';
import { countsLine, mustLine, VERDICT_LABELS } from '../report/scores.ts';
import { markOf, type OutcomeMark } from './outcome-mark.ts';
import { alsoSeenLines } from '../report/also-seen.ts';
import { switchedOnLine } from '../report/switched-on.ts';

export interface Output {
  write(text: string): void;
}

const color = (code: number) => (text: string) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\u001b[${code}m${text}\u001b[0m` : text);
const red = color(31);
const green = color(32);
const yellow = color(33);
const dim = color(2);

type FileTally = { passed: number; failed: number; blocked: number; expected: number; na: number; skipped: number; ms: number };

/** The mark and the words a failed test's line starts with. */
function markText(mark: OutcomeMark): string {
  switch (mark.kind) {
    case 'failed':
      return `${red('✗')}${mark.reliesOn ? dim(` (judged on a set ${mark.reliesOn.join(', ')} makes: blocked instead, if that failed)`) : ''}`;
    case 'blocked':
      return `${yellow('⊘')} ${yellow(`blocked by ${mark.by.join(', ')}`)}`;
    case 'expected':
      return `${dim('∼')} ${dim('expected failure (baseline)')}`;
    case 'blocked-by-expected':
      return `${dim('⊘')} ${dim(`blocked by the expected failure of ${mark.by.join(', ')}`)}`;
  }
}

export class Progress {
  private readonly perFile = new Map<string, FileTally>();
  private done = 0;
  /** The requirement ids the run's baseline expects to fail (`expecting`). */
  private expected: ReadonlySet<string> = new Set();

  /** `quiet` keeps only the summary; `redactor` is the run's (by default the process's, for a one-shot command). */
  constructor(
    private readonly out: Output,
    private readonly quiet = false,
    private readonly redactor: Pick<Redactor, 'text'> = processRedactor,
  ) {}

  line(text = ''): void {
    if (!this.quiet) this.print(text);
  }

  private print(text = ''): void {
    this.out.write(`${this.redactor.text(text)}\n`);
  }

  /** The requirements the run's baseline lists: their failures print as expected, not as failed. */
  expecting(ids: Iterable<string>): void {
    this.expected = new Set(ids);
  }

  outcome(o: TestOutcome): void {
    this.done++;
    const tally = this.perFile.get(o.file) ?? { passed: 0, failed: 0, blocked: 0, expected: 0, na: 0, skipped: 0, ms: 0 };
    const mark = o.state === 'failed' ? markOf(o, this.expected) : undefined;
    if (o.state === 'passed') tally.passed++;
    else if (mark?.kind === 'failed') tally.failed++;
    else if (mark?.kind === 'blocked') tally.blocked++;
    else if (mark) tally.expected++;
    else if (o.notApplicable) tally.na++;
    else tally.skipped++;
    tally.ms += o.durationMs;
    this.perFile.set(o.file, tally);
    if (mark) {
      const first = o.failures[0] ? failureLine(o.failures[0]) : (o.note ?? 'failed');
      this.line(`    ${markText(mark)} ${o.title}\n      ${first.split('\n')[0]}`);
    }
  }

  fileEnd(file: string): void {
    const t = this.perFile.get(file);
    const name = file.replace(/^suites\//, '').replace(/\.suite\.ts$/, '');
    if (!t) return;
    const parts = [
      t.passed ? green(`${t.passed} passed`) : '',
      t.failed ? red(`${t.failed} failed`) : '',
      t.blocked ? yellow(`${t.blocked} blocked`) : '',
      t.expected ? dim(`${t.expected} failing as expected`) : '',
      t.na ? yellow(`${t.na} not applicable`) : '',
      t.skipped ? dim(`${t.skipped} skipped`) : '',
    ].filter(Boolean);
    const mark = t.failed ? red('✗') : t.blocked ? yellow('⊘') : green('✓');
    const count = dim(` [${this.done} ${this.done === 1 ? 'test' : 'tests'} done]`);
    this.line(`  ${mark} ${name.padEnd(48)} ${parts.join(', ')} ${dim(`${(t.ms / 1000).toFixed(1)}s`)}${count}`);
  }

  summary(report: ComplianceReport, reportDir: string): void {
    const score = (level: Level) => {
      const c = report.counts.byLevel[level];
      const applicable = c.passed + c.failed + c['expected-failure'] + c.untested;
      return `${level} ${c.passed}/${applicable}`;
    };
    const label = VERDICT_LABELS[report.verdict].toUpperCase();
    const verdict =
      report.verdict === 'certified' || report.verdict === 'passed' ? green(label) : report.verdict === 'no-regressions' ? yellow(label) : red(label);
    this.print();
    this.print(`verdict: ${verdict}  ${mustLine(report)}  (${['SHOULD', 'MAY'].map((l) => score(l as Level)).join(', ')})`);
    this.print(`         ${report.verdictReason}`);
    this.print(`counts:  ${countsLine(report.counts.total)}`);
    const switched = switchedOnLine(report.target);
    if (switched) this.print(yellow(`target:  the reference with ${switched}`));
    // Root causes first: what failed, then what could not be judged because of it.
    const failed = report.requirements.filter((r) => r.status === 'failed');
    if (failed.length > 0) this.print(`failed:  ${failed.map((r) => `${r.id} (${r.level})`).join(', ')}`);
    const blocked = report.requirements.filter((r) => r.status === 'blocked');
    if (blocked.length > 0) this.print(`blocked: ${blocked.map((r) => `${r.id} (by ${(r.blockedBy ?? []).join(', ')})`).join(', ')}`);
    for (const r of blocked) for (const line of alsoSeenLines(r)) this.print(dim(`         ${r.id} ${line}`));
    const expected = report.requirements.filter((r) => r.status === 'expected-failure');
    if (expected.length > 0) this.print(`expected failures: ${expected.map((r) => r.id).join(', ')}`);
    const held = report.requirements.filter((r) => r.status === 'blocked-by-expected-failure');
    if (held.length > 0) this.print(`blocked by expected failures: ${held.map((r) => `${r.id} (by ${(r.blockedBy ?? []).join(', ')})`).join(', ')}`);
    // Their number is in the counts line above: one count, not two.
    if (report.counts.total['not-applicable'] > 0)
      this.print(dim('not applicable: requirements that need capabilities the profile does not declare (the report lists them and what they need)'));
    for (const line of tallyLines(report.transient)) this.print(yellow(`waited:  ${line}`));
    for (const line of costLines(report.cost)) this.print(dim(`created: ${line}`));
    for (const line of learnedLines(report.learned)) this.print(yellow(`learned: ${line}`));
    for (const error of report.errors) this.print(red(`error:   ${error}`));
    this.print(`report:  ${reportDir}`);
  }
}
