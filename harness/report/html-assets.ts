// The inline style and script of compliance.html. The page allows exactly these two by their
// sha256 in its Content-Security-Policy, so nothing else runs or loads, even if a target's text
// were to slip through unescaped. The script only toggles `hidden` and attributes: it never
// writes markup.
import { VERDICTS, type Verdict } from '../../schemas/vocabulary.ts';

/**
 * The banner's background per verdict, each dark enough for its white text (WCAG contrast of at
 * least 4.5; test/report/html-banner.test.ts measures it in Chromium). A Record, so a verdict
 * added to the vocabulary without a colour does not compile.
 */
export const BANNER_BACKGROUNDS: Record<Verdict, string> = {
  certified: '#1a7f37',
  passed: '#116329',
  'no-regressions': '#0550ae',
  incomplete: '#7d4e00',
  'not-certified': '#cf222e',
  error: '#57606a',
  interrupted: '#6639ba',
};

export const STYLE = `
:root { color-scheme: light; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --muted: #57606a; --line: #d0d7de; --bg: #f6f8fa; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #fff; }
header { padding: 20px 32px; color: #fff; background: #57606a; }
${VERDICTS.map((v) => `header.${v} { background: ${BANNER_BACKGROUNDS[v]}; }`).join('\n')}
header h1 { margin: 0 0 4px; font-size: 26px; letter-spacing: .02em; }
header h1 .hint { color: #fff; font-size: 16px; font-weight: 500; margin-left: 8px; }
header p { margin: 0 0 12px; font-size: 15px; }
header dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; font-size: 13px; }
header dt { font-weight: 600; }
header dd { margin: 0; overflow-wrap: anywhere; }
main { padding: 8px 32px 40px; max-width: 1400px; }
h2 { margin: 28px 0 10px; font-size: 19px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); }
th { background: var(--bg); font-weight: 600; }
.scores { display: flex; gap: 32px; flex-wrap: wrap; }
.scores table { width: auto; min-width: 360px; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.score { white-space: nowrap; font-variant-numeric: tabular-nums; }
.nowrap { white-space: nowrap; }
progress { width: 120px; height: 10px; vertical-align: middle; }
.errors li { color: var(--bad); }
#failed li { margin: 2px 0; }
#failed a { color: var(--bad); font-weight: 600; }
tr:target td { background: #fff8c5; }
.filters { display: flex; flex-wrap: wrap; gap: 10px 24px; align-items: center; margin: 8px 0; padding: 10px 12px; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; }
.filter { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; }
.filter > span { font-weight: 600; margin-right: 4px; }
.filter button { font: inherit; font-size: 12px; padding: 2px 10px; border: 1px solid var(--line); border-radius: 12px; background: #fff; cursor: pointer; }
.filter button[aria-pressed="true"] { background: #0969da; border-color: #0969da; color: #fff; }
.filters input { font: inherit; padding: 3px 8px; border: 1px solid var(--line); border-radius: 6px; min-width: 220px; }
.filters .actions button { font: inherit; font-size: 12px; padding: 2px 10px; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: pointer; }
#shown { color: var(--muted); margin: 4px 0 8px; }
.id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: nowrap; }
.status { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px; font-weight: 600; white-space: nowrap; background: #eaeef2; color: var(--muted); }
tr.passed .status { background: #dafbe1; color: var(--ok); }
tr.failed .status { background: #ffebe9; color: var(--bad); }
tr.expected-failure .status, tr.blocked-by-expected-failure .status { background: #fff8c5; color: var(--warn); }
tr.untested .status { background: #ffebe9; color: var(--bad); }
tr.failed td:first-child { box-shadow: inset 3px 0 var(--bad); }
.note { color: var(--muted); font-size: 13px; margin-top: 2px; }
details.failure { margin-top: 6px; border: 1px solid #ffcecb; border-radius: 6px; background: #fffafa; }
details.failure > summary { cursor: pointer; padding: 4px 8px; color: var(--bad); font-weight: 600; }
details.failure.expected { border-color: #eed888; background: #fffdf0; }
details.failure.expected > summary { color: var(--warn); }
.failure-body { padding: 4px 10px 10px; }
.failure-body dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 4px 0; }
.failure-body dt { font-weight: 600; color: var(--muted); }
.failure-body dd { margin: 0; min-width: 0; }
pre { margin: 0; padding: 6px 8px; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
details.exchange { margin: 4px 0; }
details.exchange > summary { cursor: pointer; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
details.exchange pre + pre { margin-top: 4px; }
.hint { color: var(--muted); font-size: 12px; }
`;

export const SCRIPT = `
(() => {
  const rows = Array.from(document.querySelectorAll('#requirements tbody tr'));
  const state = { interface: '', level: '', status: '' };
  const search = document.getElementById('search');
  const shown = document.getElementById('shown');
  const apply = () => {
    const query = search.value.trim().toLowerCase();
    let visible = 0;
    for (const row of rows) {
      const match = Object.keys(state).every((key) => state[key] === '' || row.dataset[key] === state[key]) &&
        (query === '' || row.dataset.search.includes(query));
      row.hidden = !match;
      if (match) visible += 1;
    }
    shown.textContent = 'Showing ' + visible + ' of ' + rows.length + ' requirements.';
  };
  for (const group of document.querySelectorAll('.filter[data-filter]')) {
    group.addEventListener('click', (event) => {
      const button = event.target.closest('button');
      if (!button) return;
      state[group.dataset.filter] = button.dataset.value;
      for (const other of group.querySelectorAll('button')) other.setAttribute('aria-pressed', String(other === button));
      apply();
    });
  }
  search.addEventListener('input', apply);
  const failures = () => document.querySelectorAll('#requirements tr:not([hidden]) details.failure');
  document.getElementById('expand').addEventListener('click', () => { for (const d of failures()) d.open = true; });
  document.getElementById('collapse').addEventListener('click', () => { for (const d of failures()) d.open = false; });
  document.querySelector('.filters').hidden = false;
  apply();
})();
`;
