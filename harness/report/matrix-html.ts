// matrix.html: the compatibility matrix as one self-contained page. Dark text on light cells for
// every status and verdict (legible however it is opened), every value escaped, and a
// Content-Security-Policy that allows only its own inline style: the page runs no script.
import { createHash } from 'node:crypto';
import { escapeHtml as h } from './escape.ts';
import { TARGET_FACTS, type Matrix, type MatrixRow } from './matrix.ts';
import { STATUS_LABELS } from './scores.ts';

const STYLE = `
body { margin: 0; padding: 16px 32px 40px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #fff; }
h1 { font-size: 24px; margin: 8px 0; }
h2 { font-size: 19px; margin: 28px 0 10px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
table { border-collapse: collapse; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border: 1px solid #d0d7de; }
th { background: #f6f8fa; }
.id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: nowrap; }
.s { white-space: nowrap; font-weight: 600; }
.passed, .certified { background: #dafbe1; }
.failed, .blocked, .untested, .not-certified, .error { background: #ffebe9; }
.expected-failure, .blocked-by-expected-failure, .no-regressions, .incomplete, .interrupted { background: #fff8c5; }
.skipped, .not-applicable, .none { background: #f6f8fa; }
tr.differs th.id::before { content: "≠ "; }
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function targets(matrix: Matrix): string {
  const head = `<tr><th></th>${matrix.targets.map((t) => `<th>${h(t.name)}</th>`).join('')}</tr>`;
  const verdicts = `<tr><th>Verdict</th>${matrix.targets.map((t) => `<td class="s ${h(t.verdict)}">${h(t.verdictLabel)}</td>`).join('')}</tr>`;
  const rest = TARGET_FACTS.map(([label, cell]) => `<tr><th>${h(label)}</th>${matrix.targets.map((t) => `<td>${h(cell(t))}</td>`).join('')}</tr>`);
  return `<table id="targets">${head}\n${verdicts}\n${rest.join('\n')}</table>`;
}

function statusCell(status: MatrixRow['statuses'][number]): string {
  return status === null ? '<td class="s none">not selected</td>' : `<td class="s ${h(status)}">${h(STATUS_LABELS[status])}</td>`;
}

function requirements(matrix: Matrix): string {
  const differing = new Set(matrix.differing);
  const rows = [...matrix.requirements.filter((r) => differing.has(r.id)), ...matrix.requirements.filter((r) => !differing.has(r.id))];
  const head = `<tr><th>Requirement</th><th>Level</th>${matrix.targets.map((t) => `<th>${h(t.name)}</th>`).join('')}<th>Statement</th></tr>`;
  const body = rows.map(
    (r) =>
      `<tr${differing.has(r.id) ? ' class="differs"' : ''}><th class="id">${h(r.id)}</th><td>${h(r.level)}</td>${r.statuses.map(statusCell).join('')}<td>${h(r.statement)}</td></tr>`,
  );
  return `<table id="requirements">${head}\n${body.join('\n')}</table>`;
}

export function renderMatrixHtml(matrix: Matrix): string {
  const csp = `default-src 'none'; style-src ${sha256(STYLE)}; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(`apc compatibility matrix · ${matrix.targets.map((t) => t.name).join(' · ')}`)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Compatibility matrix</h1>
<p>${matrix.targets.length} report(s), ${matrix.requirements.length} requirement(s); ${matrix.differing.length} differ between the targets${matrix.differing.length > 0 ? ' (marked ≠, listed first)' : ''}.</p>
${targets(matrix)}
<h2>Requirements</h2>
${requirements(matrix)}
</body>
</html>
`;
}
