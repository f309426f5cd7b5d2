// `apc report matrix`: requirement × target from several report folders, for implementations that
// claim to be compatible. The model here is what matrix.json holds; matrix-markdown.ts and
// matrix-html.ts render it. Everything comes from each folder's compliance.json.
import { basename, resolve } from 'node:path';
import type { InterfaceName } from '../profile/profile.ts';
import type { ComplianceReport, RequirementResult } from './compliance.ts';
import { switchedOnLine } from './switched-on.ts';
import { countsLine, interfacesOf, mustLine, VERDICT_LABELS } from './scores.ts';

export interface MatrixTarget {
  /** The column's name: the report folder's name (numbered when two folders share one). */
  name: string;
  folder: string;
  runId: string;
  /** What was certified: the in-repo reference (and how it ran) or the URLs of another implementation. */
  implementation: string;
  urls: Partial<Record<InterfaceName, string>>;
  harness: string;
  catalogue: string;
  specVersion: string;
  /** The profile's choices that decide which rules apply, in one line. */
  profile: string;
  switchedOn?: string;
  verdict: ComplianceReport['verdict'];
  verdictLabel: string;
  must: string;
  counts: string;
  endedAt: string;
}

export interface MatrixRow {
  id: string;
  level: RequirementResult['level'];
  interface: RequirementResult['interface'];
  statement: string;
  /** One per target, in the targets' order; null where that run did not select the requirement. */
  statuses: (RequirementResult['status'] | null)[];
}

export interface Matrix {
  schemaVersion: 1;
  targets: MatrixTarget[];
  requirements: MatrixRow[];
  /** Ids whose status is not the same for every target. */
  differing: string[];
}

function implementationOf(report: ComplianceReport): string {
  const instance = report.target.instance;
  if (!report.target.reference) return 'an implementation at the URLs below';
  if (!instance) return 'the in-repo reference implementation';
  const how = instance.kind === 'container' ? `container ${instance.image ?? ''}`.trim() : `process, Node.js ${instance.node ?? '?'}`;
  return `the in-repo reference implementation (${how}; ${instance.database} storage)`;
}

function profileOf(report: ComplianceReport): string {
  const interfaces = interfacesOf(report);
  const p = report.target.profile as ComplianceReport['target']['profile'] & {
    agentServerHosting?: string;
    fixtures: { graphId: string; failingGraphId?: string };
  };
  const parts = [`interfaces ${interfaces.join(', ')}`];
  if (interfaces.includes('control-plane')) parts.push(`control plane ${p.controlPlaneMode}`, `sources ${p.sources.join(', ') || 'none'}`);
  if (interfaces.includes('agent-server')) {
    parts.push(`agent server ${p.agentServerHosting ?? 'platform'}`, `fixtures ${[p.fixtures.graphId, p.fixtures.failingGraphId].filter(Boolean).join(', ')}`);
  }
  if (p.otherTenant) parts.push('a second tenant');
  parts.push(`${p.runs} runs a property, seed ${report.seed}`);
  return parts.join('; ');
}

function targetOf(folder: string, report: ComplianceReport, name: string): MatrixTarget {
  const switchedOn = switchedOnLine(report.target);
  return {
    name,
    folder: resolve(folder),
    runId: report.runId,
    implementation: implementationOf(report),
    urls: Object.fromEntries(interfacesOf(report).map((i) => [i, report.target.urls[i] ?? ''])),
    harness: `${report.harness.name} ${report.harness.version}`,
    catalogue: report.catalogue.version,
    specVersion: report.catalogue.specVersion,
    profile: profileOf(report),
    ...(switchedOn ? { switchedOn } : {}),
    verdict: report.verdict,
    verdictLabel: VERDICT_LABELS[report.verdict],
    must: mustLine(report),
    counts: countsLine(report.counts.total),
    endedAt: report.endedAt,
  };
}

/** Column names from the folders' names, numbered where two are the same. */
function namesOf(folders: string[]): string[] {
  const bases = folders.map((f) => basename(resolve(f)));
  return bases.map((base, i) => (bases.filter((b) => b === base).length > 1 ? `${base} (${bases.slice(0, i + 1).filter((b) => b === base).length})` : base));
}

/** The matrix of the reports, in the order given; rows in the catalogue's order where known (`order`), else as first seen. */
export function buildMatrix(reports: { folder: string; report: ComplianceReport }[], order: string[] = []): Matrix {
  const names = namesOf(reports.map((r) => r.folder));
  const targets = reports.map(({ folder, report }, i) => targetOf(folder, report, names[i]!));
  const first = new Map<string, RequirementResult>();
  for (const { report } of reports) for (const r of report.requirements) if (!first.has(r.id)) first.set(r.id, r);
  const rank = new Map(order.map((id, i) => [id, i]));
  const ids = [...first.keys()].sort((a, b) => (rank.get(a) ?? order.length) - (rank.get(b) ?? order.length));
  const requirements = ids.map((id) => {
    const r = first.get(id)!;
    const statuses = reports.map(({ report }) => report.requirements.find((x) => x.id === id)?.status ?? null);
    return { id, level: r.level, interface: r.interface, statement: r.statement, statuses };
  });
  const differing = requirements.filter((row) => new Set(row.statuses).size > 1).map((row) => row.id);
  return { schemaVersion: 1, targets, requirements, differing };
}

/** A target's facts, one line each (label, value), in the order every matrix format shows them. */
export const TARGET_FACTS: [string, (t: MatrixTarget) => string][] = [
  ['MUST', (t) => t.must],
  ['Requirements', (t) => t.counts],
  ['Implementation', (t) => t.implementation],
  [
    'URLs',
    (t) =>
      Object.entries(t.urls)
        .map(([i, url]) => `${i} ${url}`)
        .join(', '),
  ],
  ['Switched on', (t) => t.switchedOn ?? 'nothing'],
  ['Profile', (t) => t.profile],
  ['Harness', (t) => t.harness],
  ['Catalogue', (t) => `${t.catalogue} (spec ${t.specVersion})`],
  ['Run', (t) => `${t.runId}, ended ${t.endedAt}`],
];
