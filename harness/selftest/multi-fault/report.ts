// The multi-fault part of selftest.json and selftest.md: the totals' summary line and the table of
// combinations (components found, those not found with their requirements' statuses, MUST
// failures outside the components' requirements).
import type { CombinationRun } from './run-combination.ts';
import { totalsOf, type MultiFaultTotals } from './score.ts';

export interface MultiFaultReport {
  totals: MultiFaultTotals;
  combinations: CombinationRun[];
}

export const multiFaultReport = (combinations: CombinationRun[]): MultiFaultReport => ({ totals: totalsOf(combinations), combinations });

const pct = (x: number) => `${(100 * x).toFixed(x === 1 ? 0 : 1)}%`;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function multiFaultSummaryLine(t: MultiFaultTotals): string {
  return `multi-fault recall  ${t.found}/${t.components} components found (${pct(t.recall)}) in ${t.combinations} combinations, lowest ${pct(t.lowest)}; ${t.outside} MUST failures outside their components' requirements`;
}

export function multiFaultMarkdown(r: MultiFaultReport): string[] {
  const out = [
    '## Multi-fault combinations',
    '',
    'Several mutants at once, as real servers have several faults (`apc selftest --kinds multi-fault`). A component is found when every requirement it declares failed in the combined run (blocked is not found); "Outside" lists MUST failures outside the union of the components\' requirements. Structural: the combination holds a refused legal request form, a missing or failing endpoint, or a read that ignores its parameters.',
    '',
    '| Combination | Interfaces | Recall | Found | Not found (status of its requirements) | Outside | Structural | Time |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const c of r.combinations) {
    const found = c.components.filter((x) => x.found).map((x) => `\`${x.id}\``);
    const missed = c.components.filter((x) => !x.found).map((x) => `\`${x.id}\` (${x.notFailed.join(', ')})`);
    out.push(
      `| \`${c.id}\` | ${c.interfaces.join(', ')} | ${pct(c.recall)} | ${found.join(' ') || '–'} | ${cell(missed.join('; ')) || '–'} | ${c.outside.join(' ') || '–'} | ${c.structural ? `\`${c.structural}\`` : '–'} | ${(c.durationMs / 1000).toFixed(1)} s${c.error ? `; **no report**: ${cell(c.error.split('\n')[0]!)}` : ''} |`,
    );
  }
  const evidence = r.combinations.filter((c) => c.evidence.length > 0);
  if (evidence.length > 0)
    out.push('', 'Why a component was not found, or what failed outside:', '', ...evidence.flatMap((c) => c.evidence.map((e) => `- \`${c.id}\`: ${cell(e)}`)));
  return [...out, ''];
}
