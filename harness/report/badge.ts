// badge.svg: "apc | certified · MUST 120/120", green when certified, red when not, grey when
// the run had errors; for the README of the certified implementation.
import type { ComplianceReport } from './compliance.ts';
import { escapeXml } from './escape.ts';
import { mustLine, VERDICT_LABELS } from './scores.ts';

const COLORS: Record<ComplianceReport['verdict'], string> = {
  certified: '#2da44e',
  passed: '#0969da',
  // Not green: known failures remain.
  'no-regressions': '#9a6700',
  incomplete: '#bf8700',
  'not-certified': '#cf222e',
  error: '#6e7781',
  interrupted: '#6e7781',
};

// Approximate advance widths of Verdana at 11px; `textLength` makes the renderer fit the text
// to exactly this width, so the estimate only has to be close.
const NARROW = new Set([...'fijlrt.,:;|!\' ']);
const WIDE = new Set([...'mwMW']);
function textWidth(text: string): number {
  let width = 0;
  for (const c of text) width += NARROW.has(c) ? 4 : WIDE.has(c) ? 10 : c >= 'A' && c <= 'Z' ? 7.6 : 6.8;
  return Math.round(width);
}

export function badgeText(report: ComplianceReport): { label: string; message: string } {
  return { label: 'apc', message: `${VERDICT_LABELS[report.verdict]} · ${mustLine(report)}` };
}

export function renderBadge(report: ComplianceReport): string {
  const { label, message } = badgeText(report);
  const lw = textWidth(label) + 12;
  const mw = textWidth(message) + 12;
  const width = lw + mw;
  const title = escapeXml(`${label}: ${message}`);
  const text = (x: number, value: string, w: number) =>
    `<text x="${x}" y="15" fill="#010101" fill-opacity=".3" textLength="${w - 12}" lengthAdjust="spacingAndGlyphs">${escapeXml(value)}</text><text x="${x}" y="14" textLength="${w - 12}" lengthAdjust="spacingAndGlyphs">${escapeXml(value)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${title}">
<title>${title}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${COLORS[report.verdict]}"/><rect width="${width}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
${text(lw / 2, label, lw)}
${text(lw + mw / 2, message, mw)}
</g>
</svg>
`;
}
