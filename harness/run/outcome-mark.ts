// How a finished test reads in the live progress: failed on its own rule, blocked by another
// rule's failure (the rule its failure names: the attribution's doing, report/blocked-roots.ts),
// or failing as the baseline expects. The summary and the reports say the same in their words;
// here it is one mark per test, as it ends.
import type { TestOutcome } from '../report/compliance.ts';

export type OutcomeMark =
  { kind: 'failed'; reliesOn?: string[] } | { kind: 'blocked'; by: string[] } | { kind: 'expected' } | { kind: 'blocked-by-expected'; by: string[] };

/** The mark of a failed test; `expected` holds the requirement ids the baseline lists. */
export function markOf(o: TestOutcome, expected: ReadonlySet<string> = new Set()): OutcomeMark {
  const own = o.failures.flatMap((f) => f.requirements.filter((id) => o.requirements.includes(id)));
  if (own.length > 0 || o.failures.length === 0) {
    if (own.length > 0 && own.every((id) => expected.has(id))) return { kind: 'expected' };
    const reliesOn = [...new Set(o.failures.flatMap((f) => f.reliesOn ?? []))];
    return reliesOn.length > 0 ? { kind: 'failed', reliesOn } : { kind: 'failed' };
  }
  const by = [...new Set(o.failures.flatMap((f) => f.requirements))];
  return by.every((id) => expected.has(id)) ? { kind: 'blocked-by-expected', by } : { kind: 'blocked', by };
}
