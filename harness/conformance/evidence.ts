// The rule for a failure's evidence (docs/reports.md, "Evidence"): expected and seen are both
// given, and each carries the fields the rule compares, where the reader looks: JSON with the
// fields as keys (`[{"id": …, "created_at": …}]`), or text that names them (`HTTP 404 {"detail": …}`,
// `created_at non-increasing`). A bare value, or a list of bare values such as ids or timestamps,
// says neither which field was compared nor why it is wrong.
import type { FailureRecord } from './failure.ts';

const isBare = (value: unknown) => value === null || typeof value !== 'object';

/** Why one side of a failure is not evidence; undefined when it is. */
function sideProblem(name: 'expected' | 'seen', text: string | undefined): string | undefined {
  if (text === undefined) return `no ${name} value`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Text: one token alone (an id, a time, a number) names no field; words do.
    return /\s/.test(text.trim()) ? undefined : `${name} is a bare value (${text.slice(0, 60)}) that names no field`;
  }
  if (isBare(value)) return `${name} is a bare value (${text.slice(0, 60)}) that names no field`;
  if (Array.isArray(value) && value.length > 0 && value.every(isBare)) return `${name} is a list of bare values (${text.slice(0, 60)}…) that names no field`;
  return undefined;
}

/** What keeps a failure's expected and seen from being evidence; empty when they are. */
export function evidenceProblems(failure: Pick<FailureRecord, 'expected' | 'seen'>): string[] {
  return [sideProblem('expected', failure.expected), sideProblem('seen', failure.seen)].filter((p): p is string => p !== undefined);
}
