// selftest.json (the measures and every subject's result) and selftest.md (the matrix, for
// people and for the README's summary).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SelftestMeasures } from './measures.ts';
import { multiFaultMarkdown, multiFaultSummaryLine, type MultiFaultReport } from './multi-fault/report.ts';

export interface SelftestReport extends SelftestMeasures {
  harness: string;
  startedAt: string;
  durationMs: number;
  /** Why the selftest stopped before its last subject (a signal); the measures cover the subjects that ended. */
  interrupted?: string;
  runs: number;
  detectionRuns: number;
  seeds: number;
  seed: number;
  /** The multi-fault combinations, when --kinds asked for them. */
  multiFault?: MultiFaultReport;
}

const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(n === d ? 0 : 1)}%`);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Says when the generated mutants run were a sample of those derived (`--generated all` runs each). */
const sampleNote = (g: SelftestMeasures['generatedScore']) => (g.total > 0 && g.total < g.derived ? ` (a seeded sample of the ${g.derived} derived; --generated all runs each)` : '');

/** The lines of the summary: score, false alarms, precision, detection, hostile targets. */
export function summaryLines(r: SelftestMeasures): string[] {
  const detected = r.mutants.filter((m) => m.detection);
  return [
    `mutation score      ${r.mutationScore.caught}/${r.mutationScore.total} mutants caught (${pct(r.mutationScore.caught, r.mutationScore.total)})`,
    `generated mutants   ${r.generatedScore.caught}/${r.generatedScore.total} caught (${pct(r.generatedScore.caught, r.generatedScore.total)}), ${r.generatedScore.explained} survivors explained, ${r.generatedScore.total - r.generatedScore.caught - r.generatedScore.explained} unexplained${sampleNote(r.generatedScore)}`,
    `false alarms        ${r.falseAlarms} of ${r.variations.length} valid variations`,
    `diagnosis precision ${r.mutants.length - r.imprecise}/${r.mutants.length} mutants failed only their declared requirements`,
    `detection rate      ${detected.length - r.belowDetectionTarget}/${detected.length} property-caught mutants caught in every seed`,
    `hostile targets     ${r.hostile.filter((h) => h.ok).length}/${r.hostile.length} ended with a report within their bound`,
  ];
}

export function selftestMarkdown(r: SelftestReport): string {
  const out: string[] = [];
  out.push(`# apc selftest: ${r.interrupted ? 'interrupted' : r.problems.length === 0 ? 'every target met' : `${r.problems.length} target(s) missed`}`, '');
  if (r.interrupted) out.push(`Stopped early (${r.interrupted}): the matrix covers the subjects that ended.`, '');
  out.push(`Harness ${r.harness} (${r.runs} runs per property, seed ${r.seed}, detection over ${r.seeds} seeds at ${r.detectionRuns} runs), ${r.startedAt}, ${secs(r.durationMs)}.`, '');
  out.push('```', ...summaryLines(r), ...(r.multiFault ? [multiFaultSummaryLine(r.multiFault.totals)] : []), '```', '');
  if (r.problems.length > 0) out.push('## Missed targets', '', ...r.problems.map((p) => `- ${cell(p)}`), '');
  out.push('## Mutants', '', '| Mutant | Family | Caught by | Missed | Failed outside | Seeds | Deviation |', '|---|---|---|---|---|---|---|');
  for (const m of r.mutants) {
    const seeds = m.detection ? `${m.detection.caught}/${m.detection.seeds}` : '–';
    out.push(`| \`${m.id}\` | ${m.family} | ${m.caughtBy.join(' ') || '**none**'} | ${m.missed.join(' ') || '–'} | ${cell(m.outside.join('; ')) || '–'} | ${seeds} | ${cell(m.what)} |`);
  }
  out.push('', '## Generated mutants', '', '| Mutant | Status | Failed | Explanation | Deviation |', '|---|---|---|---|---|');
  for (const g of r.generated) {
    out.push(`| \`${g.id}\` | ${g.status} | ${g.failed.join(' ') || '–'} | ${g.explanation ? cell(`${g.explanation.place}: ${g.explanation.why}`) : '–'} | ${cell(g.what)} |`);
  }
  // Survivors grouped by the operator that made them (the `[operator]` their description starts with) and by where they ended.
  const groups = new Map<string, string[]>();
  for (const g of r.generated.filter((x) => x.status !== 'caught')) {
    const key = `${/^\[([^\]]+)\]/.exec(g.what)?.[1] ?? 'other'} | ${g.explanation?.place ?? '**unexplained**'}`;
    groups.set(key, [...(groups.get(key) ?? []), `\`${g.id}\``]);
  }
  if (groups.size > 0) {
    out.push('', '### Survivors by operator', '', '| Operator | Ended as | Mutants |', '|---|---|---|');
    for (const [key, ids] of [...groups].sort(([a], [b]) => a.localeCompare(b))) out.push(`| ${key} | ${ids.join(' ')} |`);
  }
  if (r.multiFault) out.push('', ...multiFaultMarkdown(r.multiFault));
  out.push('', '## Valid variations', '', '| Variation | Verdict | False alarms | Other notes | What it does |', '|---|---|---|---|---|');
  for (const v of r.variations) {
    out.push(`| \`${v.id}\` | ${v.verdict ?? 'none'} | ${cell(v.alarms.join('; ')) || '–'} | ${cell(v.notes.join(', ')) || '–'} | ${cell(v.what)} |`);
  }
  out.push('', '## Hostile targets', '', '| Target | Verdict | Ended after | Bound | What it does |', '|---|---|---|---|---|');
  for (const h of r.hostile) out.push(`| \`${h.id}\` | ${h.verdict ?? 'none'} | ${secs(h.endedMs)}${h.ok ? '' : ' **over**'} | ${secs(h.boundMs)} | ${cell(h.what)} |`);
  out.push('');
  return out.join('\n');
}

export function writeSelftestReport(dir: string, report: SelftestReport): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'selftest.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(dir, 'selftest.md'), selftestMarkdown(report));
}
