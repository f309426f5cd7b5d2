// What runs left on a target: every resource whose name carries a run prefix (`apc-<id>-...`,
// see Check.name), on each interface where the spec offers a delete: deployments on the control
// plane, assistants on the agent server (found by name or by the run's metadata tag). `apc
// cleanup` lists and deletes them; an interrupted run deletes its own the same way.
// Threads carry no name and the experiment upload interface has no delete: neither is covered.
// Deletion may be asynchronous: a deleted deployment is waited for until it is gone.
import { InterfaceClient, Recorder } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { Limiter } from '../http/limiter.ts';
import { awaitingDelete, deleteBoundMs, untilGone } from '../conformance/awaiting-delete.ts';
import type { InterfaceName, TargetProfile } from '../profile/profile.ts';

export interface Leftover {
  interface: InterfaceName;
  kind: 'deployment' | 'assistant';
  id: string;
  name: string;
  /** The run id the name carries (`apc-xxxxxx`). */
  runId: string;
}

export interface LeftoverScan {
  found: Leftover[];
  /** Listings that failed, each with what was asked and what came back. */
  problems: string[];
}

/** Metadata key every assistant of a run carries (suites/agent-server/support/assistants.ts). */
const RUN_TAG = 'apc_run';
const PAGE = 100;
/** A listing stops after this many pages, so a target that pages forever cannot hang cleanup. */
const MAX_PAGES = 50;
const RUN_ID = /^(apc-[a-z0-9]+)(?:-|$)/;

/** The run id in a resource name, when it carries one of `runId` (or of any run when absent). */
export function runIdIn(name: unknown, runId?: string): string | undefined {
  if (typeof name !== 'string') return undefined;
  const found = RUN_ID.exec(name)?.[1];
  if (!found || (runId !== undefined && found !== runId)) return undefined;
  return found;
}

/** The same listing page twice in a row: the target does not page. */
const samePage = (page: unknown[], previous: unknown[]): boolean => JSON.stringify(page) === JSON.stringify(previous);

function described(exchange: Exchange): string {
  const { method, url } = exchange.request;
  const answer = exchange.response ? `HTTP ${exchange.response.status}` : (exchange.error ?? 'no answer');
  return `${method} ${new URL(url).pathname}: ${answer}`;
}

function listOf(json: unknown): Record<string, unknown>[] | undefined {
  const list = Array.isArray(json) ? json : (json as { resources?: unknown } | undefined)?.resources;
  return Array.isArray(list) ? list.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : undefined;
}

export class LeftoverSweep {
  private readonly limiter: Limiter;
  readonly recorder = new Recorder();

  private readonly profile: TargetProfile;

  /**
   * `requestMs` bounds each request, so cleanup after an interrupt ends even on a hanging target;
   * `goneMs` bounds the wait for a deleted deployment to go away (AWAITING_DELETE).
   */
  constructor(
    profile: TargetProfile,
    requestMs = profile.timeouts.requestMs,
    private readonly goneMs = deleteBoundMs(profile),
  ) {
    this.profile = { ...profile, timeouts: { ...profile.timeouts, requestMs } };
    this.limiter = new Limiter(profile.concurrency);
  }

  private client(name: InterfaceName): InterfaceClient | undefined {
    const base = this.profile.urls[name];
    return base ? new InterfaceClient(name, base, this.profile, this.recorder, this.limiter) : undefined;
  }

  /** Lists what runs left; `runId` narrows it to one run. */
  async scan(runId?: string): Promise<LeftoverScan> {
    const scan: LeftoverScan = { found: [], problems: [] };
    await Promise.all([this.deployments(scan, runId), this.assistants(scan, runId)]);
    return scan;
  }

  private async deployments(scan: LeftoverScan, runId: string | undefined): Promise<void> {
    const cp = this.client('control-plane');
    if (!cp) return;
    const seen = new Set<string>();
    let previous: Record<string, unknown>[] = [];
    for (let page = 0, offset = 0; page < MAX_PAGES; page++) {
      const exchange = await cp.get('/v2/deployments', { query: { name_contains: runId ?? 'apc-', limit: PAGE, offset } });
      const list = exchange.response?.status === 200 ? listOf(exchange.response.json) : undefined;
      if (!list) return void scan.problems.push(`listing deployments failed: ${described(exchange)}`);
      for (const d of list) {
        const run = runIdIn(d.name, runId);
        if (!run || typeof d.id !== 'string' || seen.has(d.id)) continue;
        seen.add(d.id);
        scan.found.push({ interface: 'control-plane', kind: 'deployment', id: d.id, name: String(d.name), runId: run });
      }
      // A target may answer fewer than `limit` with more to come (the spec shows no page size):
      // only an empty page ends the list, or one that repeats the last (a target ignoring offset).
      if (list.length === 0 || samePage(list, previous)) return;
      previous = list;
      offset += list.length;
    }
  }

  private async assistants(scan: LeftoverScan, runId: string | undefined): Promise<void> {
    const as = this.client('agent-server');
    if (!as) return;
    const seen = new Set<string>();
    let previous: Record<string, unknown>[] = [];
    for (let page = 0, offset = 0; page < MAX_PAGES; page++) {
      const body = { ...(runId ? { metadata: { [RUN_TAG]: runId } } : {}), limit: PAGE, offset };
      const exchange = await as.post('/assistants/search', body);
      const list = exchange.response?.status === 200 ? listOf(exchange.response.json) : undefined;
      if (!list) return void scan.problems.push(`listing assistants failed: ${described(exchange)}`);
      for (const a of list) {
        const tag = (a.metadata as Record<string, unknown> | undefined)?.[RUN_TAG];
        const run = runIdIn(tag, runId) ?? runIdIn(a.name, runId);
        if (run && typeof a.assistant_id === 'string' && !seen.has(a.assistant_id)) {
          seen.add(a.assistant_id);
          scan.found.push({ interface: 'agent-server', kind: 'assistant', id: a.assistant_id, name: String(a.name ?? ''), runId: run });
        }
      }
      if (list.length === 0 || samePage(list, previous)) return;
      previous = list;
      offset += list.length;
    }
  }

  /** Deletes one leftover; a problem as text, or undefined when it is gone. */
  async delete(leftover: Leftover): Promise<string | undefined> {
    const client = this.client(leftover.interface)!;
    let exchange: Exchange;
    if (leftover.kind === 'deployment') {
      const path = `/v2/deployments/${leftover.id}`;
      // Its tracing project goes too (field notes); a target that refuses the query is asked plainly.
      exchange = await client.delete(path, { query: { delete_tracing_project: true } });
      const status = exchange.response?.status ?? 0;
      if (status >= 400 && status < 500 && status !== 404) exchange = await client.delete(path);
      const answered = exchange.response?.status ?? 0;
      // Deleted, or already on its way out (a second DELETE refused): wait until it is gone.
      if ((answered >= 200 && answered < 300) || (answered >= 400 && answered !== 404 && (await awaitingDelete(client, leftover.id)))) {
        const gone = await untilGone(client, leftover.id, this.goneMs, this.profile.pollIntervalMs);
        return gone.gone ? undefined : `deleting ${leftover.kind} ${leftover.name} (${leftover.id}): ${gone.why}`;
      }
    } else {
      exchange = await client.delete(`/assistants/${leftover.id}`);
    }
    const status = exchange.response?.status;
    if (status !== undefined && ((status >= 200 && status < 300) || status === 404)) return undefined;
    return `deleting ${leftover.kind} ${leftover.name} (${leftover.id}) failed: ${described(exchange)}`;
  }

  /** Deletes every leftover; the problems. */
  async deleteAll(leftovers: Leftover[]): Promise<string[]> {
    const problems = await Promise.all(leftovers.map((l) => this.delete(l)));
    return problems.filter((p): p is string => p !== undefined);
  }
}
