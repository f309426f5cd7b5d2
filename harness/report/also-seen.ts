// "Also seen": what a blocked requirement's test saw against its own statement before it stopped
// at another rule's failure. Shown in every format in the same words, marked as not judged: a
// reader learns of the deviation in this run, and the verdict does not rest on it.
import type { RequirementResult } from '../../schemas/compliance-report.ts';

/** One line per observation: `also seen (not judged): <message> Seen: <seen>`. */
export function alsoSeenLines(r: Pick<RequirementResult, 'alsoSeen'>): string[] {
  return (r.alsoSeen ?? []).map((s) => `also seen (not judged): ${s.message}${s.seen !== undefined ? ` Seen: ${s.seen}` : ''}`);
}

/** Under a root cause, a failure another test met says which: `met by <test title>`. */
export function foundInLine(f: { foundIn?: string }): string | undefined {
  return f.foundIn ? `met by the test "${f.foundIn}"` : undefined;
}
