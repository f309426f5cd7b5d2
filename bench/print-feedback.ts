// The feedback section's lines of the printed table: each run, then each command's new ÷ old.
import type { FeedbackResults } from './feedback.ts';

/** The issue's bound: feedback no slower than the old commit's by more than 10%. */
export const WITHIN = 1.1;

export function printFeedback(feedback: FeedbackResults, out: (line?: string) => void): void {
  const commits = feedback.checkouts.filter((c) => c.commit).map((c) => `${c.label} ${c.commit!.slice(0, 7)}`);
  out(`feedback (wall / CPU incl. children, load before${commits.length ? `; ${commits.join(', ')}` : ''})`);
  for (const f of feedback.runs) {
    out(
      `  round ${f.round} ${f.checkout.padEnd(13)} ${f.command.padEnd(18)} ${f.wallSeconds.toFixed(1)} s / ${f.cpuSeconds.toFixed(1)} s, load ${f.loadBefore}${f.passed ? '' : ' (FAILED)'}`,
    );
    for (const line of f.measures ?? []) out(`    ${line}`);
    if (f.failed?.length) out(`    failed: ${f.failed.join(', ')}`);
    if (f.slowest?.length) out(`    slowest: ${f.slowest.join(', ')}`);
  }
  const compared = new Set(feedback.comparisons.map((c) => c.command));
  const failed = feedback.runs.filter((f) => !f.passed && !compared.has(f.command) && feedback.checkouts.length > 1);
  for (const command of new Set(failed.map((f) => f.command)))
    out(`  ${command}: no ratio, a commit has no passing run (a failed run's time is how far it got)`);
  for (const c of feedback.comparisons) {
    const mark = (ratio: number) => `${ratio.toFixed(3)}${ratio <= WITHIN ? '' : ' (more than 10% slower)'}`;
    out(
      `  ${c.command}: new ÷ old, medians: wall ${mark(c.wallRatio)} (${c.new.wallSeconds} s ÷ ${c.old.wallSeconds} s), CPU ${mark(c.cpuRatio)} (${c.new.cpuSeconds} s ÷ ${c.old.cpuSeconds} s)`,
    );
  }
}
