// What a test created on the target, counted from its recorded exchanges: on a real platform
// every accepted deployment is a database and a tracing project, and every revision a build of
// minutes, so the report puts these counts beside the plan (harness/run/cost.ts).
import type { Exchange } from '../http/exchange.ts';
import { INTERFACES, type Budget, type InterfaceName, type TargetProfile } from '../profile/profile.ts';
import type { ComplianceReport } from '../../schemas/compliance-report.ts';

export const CREATED_KINDS = ['deployments', 'revisions', 'assistants', 'threads', 'runs', 'uploads'] as const;
export type CreatedKind = (typeof CREATED_KINDS)[number];
export type Created = Partial<Record<CreatedKind, number>>;

/** The interface whose requests create each kind. */
export const KIND_INTERFACE: Record<CreatedKind, InterfaceName> = {
  deployments: 'control-plane',
  revisions: 'control-plane',
  assistants: 'agent-server',
  threads: 'agent-server',
  runs: 'agent-server',
  uploads: 'experiment-upload',
};

const field = (json: unknown, key: string): unknown => (json !== null && typeof json === 'object' ? (json as Record<string, unknown>)[key] : undefined);

/** The request's path below the interface's base URL (a self-hosted control plane has a prefix). */
function pathOf(exchange: Exchange, profile: TargetProfile): string {
  const base = profile.urls[exchange.interface];
  const path = new URL(exchange.request.url).pathname;
  const prefix = base ? new URL(base).pathname.replace(/\/$/, '') : '';
  return prefix && path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

const RUN_PATHS = [/^\/runs(\/stream|\/wait)?$/, /^\/threads\/[^/]+\/runs(\/stream|\/wait)?$/];

/**
 * The resources `exchanges` created, counting only accepted (2xx) requests. A create makes a
 * deployment and its first revision; a PATCH made a revision when its answer names a
 * latest_revision_id the test had not seen for that deployment before.
 */
export function createdBy(exchanges: readonly Exchange[], profile: TargetProfile): Created {
  const created: Created = {};
  const add = (kind: CreatedKind) => (created[kind] = (created[kind] ?? 0) + 1);
  const knownRevisions = new Map<string, Set<string>>();
  const known = (id: string) => knownRevisions.get(id) ?? knownRevisions.set(id, new Set()).get(id)!;
  for (const exchange of exchanges) {
    const status = exchange.response?.status ?? 0;
    if (status < 200 || status >= 300) continue;
    const method = exchange.request.method;
    const path = pathOf(exchange, profile);
    const json = exchange.response?.json;
    if (exchange.interface === 'control-plane') {
      const id = field(json, 'id');
      const latest = field(json, 'latest_revision_id');
      if (method === 'POST' && path === '/v2/deployments') {
        add('deployments');
        add('revisions');
        if (typeof id === 'string' && typeof latest === 'string') known(id).add(latest);
      } else if (/^\/v2\/deployments\/[^/]+$/.test(path) && typeof id === 'string' && typeof latest === 'string') {
        if (method === 'PATCH' && !known(id).has(latest)) add('revisions');
        known(id).add(latest);
      } else if (method === 'GET' && /^\/v2\/deployments\/[^/]+\/revisions$/.test(path)) {
        const deployment = path.split('/')[3]!;
        const resources = field(json, 'resources');
        if (Array.isArray(resources)) for (const r of resources) if (typeof field(r, 'id') === 'string') known(deployment).add(field(r, 'id') as string);
      }
    } else if (exchange.interface === 'agent-server' && method === 'POST') {
      if (path === '/assistants') add('assistants');
      else if (path === '/threads') add('threads');
      else if (RUN_PATHS.some((p) => p.test(path))) add('runs');
    } else if (exchange.interface === 'experiment-upload' && method === 'POST' && path === '/api/v1/datasets/upload-experiment') {
      add('uploads');
    }
  }
  return created;
}

/** `1 deployment`, `3 deployments`: every kind's plural ends in s. */
const counted = (n: number, kind: (typeof CREATED_KINDS)[number]) => `${n} ${n === 1 ? kind.slice(0, -1) : kind}`;

/** "1 deployment, 5 revisions": the kinds present. */
export function createdText(created: Created): string {
  return CREATED_KINDS.filter((k) => created[k]).map((k) => counted(created[k]!, k)).join(', ') || 'nothing';
}

/** A profile's budget in words. */
export function budgetText(budget: Budget | undefined): string {
  if (!budget) return 'none';
  return [budget.deployments !== undefined ? counted(budget.deployments, 'deployments') : '', budget.revisions !== undefined ? counted(budget.revisions, 'revisions') : ''].filter(Boolean).join(', ');
}

/** Adds `more` into `sum`, kind by kind. */
export function addCreated(sum: Created, more: Created | undefined): Created {
  for (const kind of CREATED_KINDS) if (more?.[kind]) sum[kind] = (sum[kind] ?? 0) + more[kind]!;
  return sum;
}

/** Per interface, what a run created beside what its plan allowed: "control-plane: 70 deployments (of at most 169), ...". */
export function costLines(cost: ComplianceReport['cost']): string[] {
  if (!cost) return [];
  return INTERFACES.flatMap((name) => {
    const created = cost.created[name] ?? {};
    const planned = cost.planned[name]?.creates ?? {};
    const kinds = CREATED_KINDS.filter((k) => KIND_INTERFACE[k] === name && (created[k] || planned[k]));
    return kinds.length === 0 ? [] : [`${name}: ${kinds.map((k) => `${counted(created[k] ?? 0, k)} (of at most ${planned[k] ?? 0} planned)`).join(', ')}`];
  });
}
