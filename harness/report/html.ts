// compliance.html: one self-contained page (inline style and script, nothing loaded from
// anywhere). The requirement matrix filters by interface, level and status; each failure opens
// to show what was expected and seen, how to run it again, and the recorded exchanges.
import { createHash } from 'node:crypto';
import { LEVELS } from '../catalogue.ts';
import type { FailureRecord, RecordedExchange } from '../conformance/failure.ts';
import { STATUSES, type ComplianceReport, type RequirementResult } from './compliance.ts';
import { escapeHtml as h } from './escape.ts';
import { SCRIPT, STYLE } from './html-assets.ts';
import { reproductionLines } from './reproduction.ts';
import { switchedOnLine } from './switched-on.ts';
import { cellScore, checkedLine, countsLine, duration, formatScore, interfacesOf, mustLine, scoreOf, STATUS_LABELS, VERDICT_LABELS, type Score } from './scores.ts';
import { tallyLines } from '../http/throttling.ts';
import { alsoSeenLines } from './also-seen.ts';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function header(report: ComplianceReport): string {
  const switched = switchedOnLine(report.target);
  const urls = interfacesOf(report).map((i) => `${h(i)} ${h(report.target.urls[i] ?? '(no URL)')}`);
  const rows: [string, string][] = [
    ['Target', `${report.target.reference ? 'in-repo reference implementation' : 'implementation under test'}, control plane mode ${h(report.target.controlPlaneMode)}${switched ? `; ${h(switched)}` : ''}`],
    ['URLs', urls.join('<br>')],
    ['Run', [h(report.runId), `seed ${report.seed}`, report.shard ? `shard ${report.shard.index}/${report.shard.count}` : '', report.mergedFrom ? `merged from ${h(report.mergedFrom.join(', '))}` : '', report.replayOf ? `replay of ${h(report.replayOf)}` : ''].filter(Boolean).join(' · ')],
    ['Time', `${h(report.startedAt)} → ${h(report.endedAt)} (${duration(report)})`],
    ...(report.transient ? [['Waited out', tallyLines(report.transient).map(h).join('<br>')] as [string, string]] : []),
    ['Harness', `${h(report.harness.name)} ${h(report.harness.version)}`],
    ['Catalogue', `${h(report.catalogue.version)} (spec ${h(report.catalogue.specVersion)}, sha256 ${h(report.catalogue.hash.slice(0, 12))})`],
  ];
  return `<header class="${report.verdict}">
<h1>${h(VERDICT_LABELS[report.verdict].toUpperCase())} <span class="hint">${h(mustLine(report))}</span></h1>
<p>${h(report.verdictReason)}</p>
<p class="counts">${h(countsLine(report.counts.total))}; ${report.requirements.length} requirements.</p>
<dl>${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>
</header>`;
}

function scoreCell(score: Score): string {
  if (score.applicable === 0) return '<td class="score">—</td>';
  return `<td class="score">${h(formatScore(score))} <progress value="${score.passed}" max="${score.applicable}"></progress></td>`;
}

function scores(report: ComplianceReport): string {
  const byLevel = LEVELS.map((l) => {
    const c = report.counts.byLevel[l];
    return `<tr><th>${l}</th>${scoreCell(scoreOf(c))}<td class="num">${c.failed}</td><td class="num">${c.blocked}</td><td class="num">${c['expected-failure']}</td><td class="num">${c['blocked-by-expected-failure']}</td><td class="num">${c['not-applicable']}</td><td class="num">${c.skipped + c.untested}</td></tr>`;
  });
  const byInterface = interfacesOf(report).map((i) => `<tr><th>${h(i)}</th>${LEVELS.map((l) => scoreCell(cellScore(report, i, l))).join('')}</tr>`);
  return `<section id="scores"><h2>Scores</h2>
<p class="hint">SHOULD and MAY results are scored but never decide the verdict. A score counts passed requirements out of the applicable ones; expected failures count as not passed.</p>
<div class="scores">
<table><thead><tr><th>Level</th><th>Score</th><th>failed</th><th>blocked</th><th>expected failure</th><th>blocked by expected failure</th><th>not applicable</th><th>skipped / untested</th></tr></thead><tbody>${byLevel.join('')}</tbody></table>
<table><thead><tr><th>Interface</th>${LEVELS.map((l) => `<th>${l}</th>`).join('')}</tr></thead><tbody>${byInterface.join('')}</tbody></table>
</div></section>`;
}

/** The failed requirements first, each a link to its row in the matrix. */
function failedList(report: ComplianceReport): string {
  const failed = LEVELS.flatMap((l) => report.requirements.filter((r) => r.status === 'failed' && r.level === l));
  if (failed.length === 0) return '';
  const items = failed.map((r) => `<li><a href="#${h(rowId(r))}" class="id">${h(r.id)}</a> ${h(r.level)} · ${h(r.failures[0]?.message ?? 'failed')}</li>`);
  // Root causes first; what they kept from being judged follows.
  const blocked = report.requirements.filter((r) => r.status === 'blocked');
  const blockedList = blocked.length === 0 ? '' : `<h3>Blocked by them (${blocked.length})</h3><ul>${blocked.map((r) => `<li><a href="#${h(rowId(r))}" class="id">${h(r.id)}</a> ${h(r.level)} · not judged, blocked by ${h((r.blockedBy ?? []).join(', '))}</li>`).join('')}</ul>`;
  return `<section id="failed"><h2>Failed requirements (${failed.length})</h2><ul>${items.join('')}</ul>${blockedList}</section>`;
}

const rowId = (r: RequirementResult) => `req-${r.id}`;

function errors(report: ComplianceReport): string {
  if (report.errors.length === 0) return '';
  return `<section id="errors"><h2>Run errors</h2><p>The run itself had problems; they make the verdict “error”.</p><ul class="errors">${report.errors.map((e) => `<li>${h(e)}</li>`).join('')}</ul></section>`;
}

function exchangeSummary(e: RecordedExchange, index: number): string {
  const request = /-X (\S+) '([^']*)'/.exec(e.curl);
  const status = /^(HTTP \d+|no response)/.exec(e.response)?.[1] ?? 'response';
  return `${index + 1}. ${request ? `${request[1]} ${request[2]}` : 'request'} → ${status}`;
}

function failureBody(report: ComplianceReport, f: FailureRecord): string {
  const fields: [string, string | undefined][] = [
    ['Expected', f.expected],
    ['Seen', f.seen],
    ['Input', f.input],
    ['Seed', f.seed === undefined ? undefined : `${f.seed}${f.path ? ` (path ${f.path})` : ''}`],
    ...reproductionLines(report, f).map((line): [string, string] => [line.label.replace(/:$/, ''), line.text]),
  ];
  const dl = fields
    .filter((x): x is [string, string] => x[1] !== undefined)
    .map(([k, v]) => `<dt>${k}</dt><dd><pre>${h(v)}</pre></dd>`)
    .join('');
  const last = f.exchanges.length - 1;
  const exchanges = f.exchanges
    .map(
      (e, i) =>
        `<details class="exchange"${i === last ? ' open' : ''}><summary>${h(exchangeSummary(e, i))}</summary><pre class="curl">${h(e.curl)}</pre><pre class="response">${h(e.response)}</pre></details>`,
    )
    .join('');
  return `<div class="failure-body"><dl>${dl}</dl>${f.exchanges.length > 0 ? `<div class="exchanges"><strong>Exchanges (${f.exchanges.length}, oldest first)</strong>${exchanges}</div>` : ''}</div>`;
}

function details(report: ComplianceReport, r: RequirementResult): string {
  if (r.status === 'failed') {
    if (r.failures.length === 0) return '<div class="note">The test failed without a recorded failure.</div>';
    return r.failures.map((f) => `<details class="failure"><summary>${h(f.message)}</summary>${failureBody(report, f)}</details>`).join('');
  }
  if (r.status === 'expected-failure') {
    const reason = `<div class="note">Expected failure (baseline): ${h(r.reason ?? '')}</div>`;
    return reason + r.failures.map((f) => `<details class="failure expected"><summary>${h(f.message)}</summary>${failureBody(report, f)}</details>`).join('');
  }
  if (r.status === 'not-applicable') return `<div class="note">Not applicable: ${h(r.reason ?? `needs ${(r.needs ?? []).join(', ')}`)}</div>`;
  if (r.status === 'blocked') {
    const seen = alsoSeenLines(r).map((line) => `<div class="note also-seen">${h(line)}</div>`);
    return `<div class="note">Blocked: not judged, its test stopped at a failure explained by ${h((r.blockedBy ?? []).join(', '))}</div>${seen.join('')}`;
  }
  if (r.status === 'blocked-by-expected-failure') {
    return `<div class="note">Blocked by an expected failure (baseline): not judged, its test stopped at the expected failure of ${h((r.blockedBy ?? []).join(', '))}</div>`;
  }
  if (r.reason) return `<div class="note">${h(r.reason)}</div>`;
  return '';
}

function row(report: ComplianceReport, r: RequirementResult): string {
  const search = `${r.id} ${r.statement}`.toLowerCase();
  return `<tr id="${h(rowId(r))}" class="${r.status}" data-interface="${h(r.interface)}" data-level="${h(r.level)}" data-status="${h(r.status)}" data-search="${h(search)}">
<td class="id">${h(r.id)}</td><td>${h(r.level)}</td><td class="nowrap">${h(r.interface)}</td><td>${h(r.section)}</td><td><span class="status">${h(STATUS_LABELS[r.status])}</span></td>
<td><div class="statement">${h(r.statement)}</div>${r.consumers ? `<div class="note">${r.consumers} Pact consumer(s) rely on it</div>` : ''}${details(report, r)}<div class="hint">${h(checkedLine(r))}</div></td></tr>`;
}

function filter(name: string, label: string, values: { value: string; label: string; count: number }[], total: number): string {
  const buttons = [`<button type="button" data-value="" aria-pressed="true">all (${total})</button>`].concat(
    values.filter((v) => v.count > 0).map((v) => `<button type="button" data-value="${h(v.value)}" aria-pressed="false">${h(v.label)} (${v.count})</button>`),
  );
  return `<div class="filter" data-filter="${name}" role="group" aria-label="${label}"><span>${label}</span>${buttons.join('')}</div>`;
}

function matrix(report: ComplianceReport): string {
  const all = report.requirements;
  const count = (pick: (r: RequirementResult) => boolean) => all.filter(pick).length;
  const filters = [
    filter('interface', 'Interface', interfacesOf(report).map((i) => ({ value: i, label: i, count: count((r) => r.interface === i) })), all.length),
    filter('level', 'Level', LEVELS.map((l) => ({ value: l, label: l, count: count((r) => r.level === l) })), all.length),
    filter('status', 'Status', STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s], count: count((r) => r.status === s) })), all.length),
  ];
  return `<section id="matrix"><h2>Requirement matrix</h2>
<div class="filters" hidden>${filters.join('')}
<label>Search <input type="search" id="search" placeholder="id or words of the statement"></label>
<span class="actions"><button type="button" id="expand">Expand failures</button> <button type="button" id="collapse">Collapse</button></span></div>
<p id="shown">${all.length} requirements.</p>
<table id="requirements"><thead><tr><th>Id</th><th>Level</th><th>Interface</th><th>§</th><th>Status</th><th>Statement</th></tr></thead>
<tbody>
${all.map((r) => row(report, r)).join('\n')}
</tbody></table></section>`;
}

export function renderHtml(report: ComplianceReport): string {
  const csp = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(`apc compliance report · ${VERDICT_LABELS[report.verdict]} · ${report.runId}`)}</title>
<style>${STYLE}</style>
</head>
<body>
${header(report)}
<main>
${errors(report)}
${scores(report)}
${failedList(report)}
${matrix(report)}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
