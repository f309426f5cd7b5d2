// An in-memory control plane behind the ControlPlaneApi of the model-based commands, for the
// generators' unit tests: it follows sections 2 and 3, or breaks one rule when asked to.
import { randomUUID } from 'node:crypto';
import { classifyCreate, classifyPatch, expectedRevisionDelta, type DeploymentView } from '../../../generators/control-plane/classify.ts';
import type { ControlPlaneApi, Answer } from '../../../generators/control-plane/commands.ts';
import type { Mode } from '../../../generators/control-plane/context.ts';
import { revisionMembersSet } from '../../../generators/control-plane/model.ts';
import { triggersOf } from '../../../harness/selftest/mutants/deployment-traffic.ts';

export type FakeFault = 'secrets-no-revision' | 'revisions-oldest-first' | 'delete-keeps' | 'refused-patch-applied' | 'combined-triggers-two-revisions';

type Json = Record<string, unknown>;

interface Stored {
  view: DeploymentView;
  revisions: { id: string; source_revision_config: Json }[];
}

export class FakeControlPlane implements ControlPlaneApi {
  private readonly deployments = new Map<string, Stored>();
  private counter = 0;
  /** Deployments whose newest revision no PATCH has reached yet: on a target that refuses a PATCH while busy, the next PATCH waits for it. */
  private readonly building = new Set<string>();
  /** PATCHes that reached a deployment in `building`: the revision waits a sequence made one after another. */
  waits = 0;

  constructor(
    private readonly mode: Mode,
    private readonly fault?: FakeFault,
  ) {}

  private body(id: string, stored: Stored): Json {
    return {
      id,
      name: stored.view.name,
      source: stored.view.source,
      source_config: stored.view.source_config,
      source_revision_config: stored.revisions.at(-1)!.source_revision_config,
      latest_revision_id: stored.revisions.at(-1)!.id,
    };
  }

  async create(body: Json & { name: string }): Promise<Answer & { name: string }> {
    const name = `${body.name}-${++this.counter}`;
    if (!classifyCreate({ ...body, name }, this.mode).valid) return { status: 400, body: { detail: 'invalid' }, name };
    const id = randomUUID();
    const stored: Stored = {
      view: { name, source: body.source as DeploymentView['source'], source_config: (body.source_config ?? {}) as Json, source_revision_config: {} },
      revisions: [{ id: randomUUID(), source_revision_config: revisionMembersSet(body) }],
    };
    this.deployments.set(id, stored);
    this.building.add(id);
    return { status: 201, body: this.body(id, stored), name };
  }

  async get(id: string): Promise<Answer> {
    const stored = this.deployments.get(id);
    return stored ? { status: 200, body: this.body(id, stored) } : { status: 404, body: { detail: `Deployment ID ${id} not found.` } };
  }

  async patch(id: string, patch: Json): Promise<Answer> {
    const stored = this.deployments.get(id);
    if (!stored) return { status: 404, body: { detail: `Deployment ID ${id} not found.` } };
    if (this.building.delete(id)) this.waits += 1;
    const verdict = classifyPatch(patch, { ...stored.view, source_revision_config: stored.revisions.at(-1)!.source_revision_config }, this.mode);
    const refused = !verdict.valid;
    if (refused && this.fault !== 'refused-patch-applied') return { status: 400, body: { detail: 'invalid' } };
    // The fault: secrets are not a trigger.
    const counted = this.fault === 'secrets-no-revision' ? { ...patch, secrets: null } : patch;
    const delta = expectedRevisionDelta(counted, stored.view);
    if (delta === 1) stored.revisions.push({ id: randomUUID(), source_revision_config: revisionMembersSet(patch) });
    if (delta === 1 && !refused) this.building.add(id);
    // The fault: a PATCH of several triggers makes a second revision.
    if (delta === 1 && this.fault === 'combined-triggers-two-revisions' && triggersOf(patch).length >= 2) stored.revisions.push({ id: randomUUID(), source_revision_config: revisionMembersSet(patch) });
    return refused ? { status: 400, body: { detail: 'invalid' } } : { status: 200, body: this.body(id, stored) };
  }

  async revisions(id: string): Promise<Answer> {
    const stored = this.deployments.get(id);
    if (!stored) return { status: 404, body: { detail: 'not found' } };
    const list = [...stored.revisions];
    if (this.fault !== 'revisions-oldest-first') list.reverse();
    return { status: 200, body: { resources: list.map((r) => ({ id: r.id, status: 'DEPLOYED', source_revision_config: r.source_revision_config })) } };
  }

  async delete(id: string): Promise<Answer> {
    if (!this.deployments.has(id)) return { status: 404, body: { detail: 'not found' } };
    if (this.fault !== 'delete-keeps') this.deployments.delete(id);
    return { status: 204, body: undefined };
  }
}
