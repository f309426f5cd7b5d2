// The multi-fault measures, pure functions of a combined run's requirement statuses (so the
// arithmetic is checked without running anything). Per combination:
// - recall: the share of its components found, a component being found when every requirement it
//   declares is `failed` in the combined run (blocked, passed or skipped is not found);
// - outside: MUST requirements failed outside the union of the components' declared ones (each a
//   false alarm of the combined run; the target is none).
// Overall: recall over every component of every combination, and the lowest combination's.
import type { RequirementResult } from '../../report/compliance.ts';

/** The targets of issue "every deviation in one run": recall overall and per combination, no MUST failure outside. */
export const MULTI_FAULT_TARGETS = { overallRecall: 0.9, combinationRecall: 0.75 } as const;

export type Status = Pick<RequirementResult, 'id' | 'level' | 'status'>;

export interface ComponentScore {
  id: string;
  declared: string[];
  failed: string[];
  /** Declared requirements that did not fail, with their status (blocked, passed ...). */
  notFailed: string[];
  found: boolean;
}

export interface CombinationScore {
  id: string;
  components: ComponentScore[];
  /** Found components / components. */
  recall: number;
  /** MUST requirements failed outside the union of the components' declared requirements. */
  outside: string[];
}

export interface ComponentDeclaration {
  id: string;
  catches: string[];
}

export function scoreCombination(id: string, components: ComponentDeclaration[], statuses: Status[]): CombinationScore {
  const byId = new Map(statuses.map((s) => [s.id, s]));
  const scored = components.map((c): ComponentScore => {
    const failed = c.catches.filter((r) => byId.get(r)?.status === 'failed');
    const notFailed = c.catches.filter((r) => byId.get(r)?.status !== 'failed').map((r) => `${r} ${byId.get(r)?.status ?? 'not run'}`);
    return { id: c.id, declared: c.catches, failed, notFailed, found: notFailed.length === 0 && c.catches.length > 0 };
  });
  const union = new Set(components.flatMap((c) => c.catches));
  const outside = statuses.filter((s) => s.status === 'failed' && s.level === 'MUST' && !union.has(s.id)).map((s) => s.id);
  return { id, components: scored, recall: scored.filter((c) => c.found).length / scored.length, outside };
}

export interface MultiFaultTotals {
  combinations: number;
  components: number;
  found: number;
  /** found / components over every combination. */
  recall: number;
  /** The lowest combination's recall. */
  lowest: number;
  /** MUST failures outside their combination's union, over every combination. */
  outside: number;
}

export function totalsOf(scores: CombinationScore[]): MultiFaultTotals {
  const components = scores.reduce((n, s) => n + s.components.length, 0);
  const found = scores.reduce((n, s) => n + s.components.filter((c) => c.found).length, 0);
  return {
    combinations: scores.length,
    components,
    found,
    recall: components === 0 ? 0 : found / components,
    lowest: scores.length === 0 ? 0 : Math.min(...scores.map((s) => s.recall)),
    outside: scores.reduce((n, s) => n + s.outside.length, 0),
  };
}

/** The targets missed, one line each (none: every target met). */
export function multiFaultProblems(scores: CombinationScore[]): string[] {
  // A run without the multi-fault kind scored no combination: no target to miss.
  if (scores.length === 0) return [];
  const t = totalsOf(scores);
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  return [
    ...(t.recall < MULTI_FAULT_TARGETS.overallRecall
      ? [`multi-fault recall ${pct(t.recall)} (${t.found}/${t.components}) is below ${pct(MULTI_FAULT_TARGETS.overallRecall)}`]
      : []),
    ...scores
      .filter((s) => s.recall < MULTI_FAULT_TARGETS.combinationRecall)
      .map(
        (s) =>
          `multi-fault ${s.id}: recall ${pct(s.recall)}, below ${pct(MULTI_FAULT_TARGETS.combinationRecall)} (not found: ${s.components
            .filter((c) => !c.found)
            .map((c) => `${c.id} [${c.notFailed.join(', ')}]`)
            .join('; ')})`,
      ),
    ...scores.filter((s) => s.outside.length > 0).map((s) => `multi-fault ${s.id}: MUST failures outside its components' requirements: ${s.outside.join(' ')}`),
  ];
}
