// matrix.md: the compatibility matrix in Markdown (a CI job summary, a pull request comment). The
// targets first, one column each (verdict, versions, profile, what was switched on), then one row
// per requirement with each target's status, the rows where the targets differ listed first.
import { MARKS, text } from './markdown.ts';
import { TARGET_FACTS, type Matrix, type MatrixRow, type MatrixTarget } from './matrix.ts';
import { STATUS_LABELS } from './scores.ts';

/** The verdict in bold, then the facts every matrix format shows. */
const TARGET_LINES: [string, (t: MatrixTarget) => string][] = [['Verdict', (t) => `**${t.verdictLabel}**`], ...TARGET_FACTS];

function tableRow(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function statusCell(status: MatrixRow['statuses'][number]): string {
  return status === null ? 'not selected' : `${MARKS[status]} ${STATUS_LABELS[status]}`;
}

export function renderMatrixMarkdown(matrix: Matrix): string {
  const names = matrix.targets.map((t) => text(t.name));
  const lines = [
    '# Compatibility matrix',
    '',
    `${matrix.targets.length} report(s), ${matrix.requirements.length} requirement(s); ${matrix.differing.length} differ between the targets.`,
    '',
  ];
  lines.push(tableRow(['', ...names]), tableRow(['---', ...names.map(() => '---')]));
  for (const [label, cell] of TARGET_LINES) {
    lines.push(tableRow([label, ...matrix.targets.map((t) => (label === 'Verdict' ? cell(t) : text(cell(t))))]));
  }
  const differing = new Set(matrix.differing);
  const rows = [...matrix.requirements.filter((r) => differing.has(r.id)), ...matrix.requirements.filter((r) => !differing.has(r.id))];
  lines.push(
    '',
    '## Requirements',
    '',
    differing.size > 0 ? 'Rows where the targets differ come first (marked ≠).' : 'Every target has the same status on every requirement.',
    '',
  );
  lines.push(tableRow(['Requirement', 'Level', ...names, 'Statement']), tableRow(['---', '---', ...names.map(() => '---'), '---']));
  for (const r of rows) {
    lines.push(tableRow([`${differing.has(r.id) ? '≠ ' : ''}${r.id}`, r.level, ...r.statuses.map(statusCell), text(r.statement)]));
  }
  return `${lines.join('\n')}\n`;
}
