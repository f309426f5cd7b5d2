// Operation sequences on deployments (`fc.commands`): create, PATCH, read, list revisions and
// delete, each checked against the pure model of model.ts. The commands talk to the
// ControlPlaneApi they are given: the conformance suite passes one that speaks HTTP to the target,
// unit tests an in-memory one. A disagreement with the model is a ModelMismatch naming the rule.
import fc from 'fast-check';
import type { Source } from '../../schemas/index.ts';
import { ModelMismatch } from '../model-mismatch.ts';
import { classifyPatch } from './classify.ts';
import { validSources, type GeneratorContext } from './context.ts';
import { validCreateFor, type CreateBody } from './create-payloads.ts';
import { ControlPlaneModel, type ModelDeployment } from './model.ts';
import { combinedTriggerPatch, invalidPatch, nonTriggerPatch, triggerPatch, triggersFor, type PatchBody } from './patches.ts';
import { TRIGGERS } from './source-rules.ts';
import { isObject } from '../../schemas/is-object.ts';

/** What came back: the status (undefined when nothing did) and the parsed JSON body. */
export interface Answer {
  status: number | undefined;
  body: unknown;
}

export interface ControlPlaneApi {
  /** POST /v2/deployments. It may make the name unique; it reports the name it sent. */
  create(body: CreateBody): Promise<Answer & { name: string }>;
  get(id: string): Promise<Answer>;
  patch(id: string, body: PatchBody): Promise<Answer>;
  revisions(id: string): Promise<Answer>;
  delete(id: string): Promise<Answer>;
}

export interface ControlPlaneReal {
  api: ControlPlaneApi;
  /** Server ids by model slot. */
  ids: string[];
  /** Revision ids by model slot, oldest first, as the server reported them. */
  revisionIds: string[][];
  /** Model slots of the deployments a PATCH was sent to. */
  patched: Set<number>;
}

type Command = fc.AsyncCommand<ControlPlaneModel, ControlPlaneReal>;
type Json = Record<string, unknown>;

/** At most this many live deployments per sequence: each one costs the target a build. */
const MAX_LIVE = 2;

const field = (body: unknown, key: string): unknown => (isObject(body) ? body[key] : undefined);

function expectStatus(requirement: string, what: string, answer: Answer, allowed: number[]): void {
  if (answer.status !== undefined && allowed.includes(answer.status)) return;
  throw new ModelMismatch(requirement, `${what} answered ${answer.status ?? 'nothing'}; expected ${allowed.join(' or ')}.`, allowed, answer);
}

const is4xx = (answer: Answer) => answer.status !== undefined && answer.status >= 400 && answer.status < 500;

/** The members the latest revision was created with, as a deployment or revision reports them. */
function expectMembers(requirement: string, what: string, reported: unknown, set: Json): void {
  const config = isObject(reported) ? reported : {};
  const wrong = Object.keys(set).filter((k) => config[k] !== set[k]);
  if (wrong.length > 0) {
    throw new ModelMismatch(requirement, `${what} does not hold the values the request set (${wrong.join(', ')}).`, set, reported);
  }
}

/** A revision's SourceRevisionConfig values: nested as the field notes show them, or flat. */
export function revisionConfigOf(revision: unknown): Json {
  const nested = field(revision, 'source_revision_config');
  return isObject(nested) ? nested : isObject(revision) ? revision : {};
}

function latestKnown(real: ControlPlaneReal, d: ModelDeployment): string {
  return real.revisionIds[d.slot]!.at(-1)!;
}

class CreateCommand implements Command {
  constructor(readonly body: CreateBody) {}
  check(model: Readonly<ControlPlaneModel>): boolean {
    return model.live().length < MAX_LIVE;
  }
  async run(model: ControlPlaneModel, real: ControlPlaneReal): Promise<void> {
    const answer = await real.api.create(this.body);
    expectStatus('CP-CREATE-001', 'POST /v2/deployments', answer, [201]);
    const id = field(answer.body, 'id');
    const latest = field(answer.body, 'latest_revision_id');
    if (typeof id !== 'string' || typeof latest !== 'string') {
      throw new ModelMismatch('CP-CREATE-003', 'The create response lacks id or a non-null latest_revision_id.', 'id and latest_revision_id', answer.body);
    }
    if (field(answer.body, 'name') !== answer.name || field(answer.body, 'source') !== this.body.source) {
      throw new ModelMismatch('CP-CREATE-004', 'The created deployment does not have the name and source sent.', { name: answer.name, source: this.body.source }, answer.body);
    }
    const created = model.create(answer.name, this.body);
    expectMembers('CP-REV-014', 'The created deployment’s source_revision_config', field(answer.body, 'source_revision_config'), created.latestSet);
    real.ids[created.slot] = id;
    real.revisionIds[created.slot] = [latest];
  }
  toString(): string {
    return `create(${this.body.source})`;
  }
}

class PatchCommand implements Command {
  constructor(
    readonly pick: number,
    readonly bySource: Partial<Record<Source, PatchBody>>,
    readonly ctx: GeneratorContext,
    /** At most this many PATCHes of the sequence wait for a revision in progress (absent: any). */
    readonly waitsAllowed?: number,
  ) {}
  check(model: Readonly<ControlPlaneModel>): boolean {
    const d = model.pick(this.pick);
    return d !== undefined && (this.waitsAllowed === undefined || !d.fresh || model.waits < this.waitsAllowed);
  }
  async run(model: ControlPlaneModel, real: ControlPlaneReal): Promise<void> {
    const d = model.pick(this.pick)!;
    const patch = this.bySource[d.view.source] ?? {};
    const verdict = classifyPatch(patch, d.view, this.ctx.mode);
    const before = latestKnown(real, d);
    real.patched.add(d.slot);
    model.sendingPatch(d);
    const answer = await real.api.patch(real.ids[d.slot]!, patch);
    if (verdict.breaks.length > 0) {
      expectStatus(verdict.breaks[0]!, `A PATCH breaking ${verdict.breaks.join(', ')}`, answer, [400, 422]);
      return this.expectUnchanged(real, d, before);
    }
    if (!verdict.valid && answer.status !== 200) {
      expectStatus(verdict.either[0] ?? verdict.immutable[0] ?? 'CP-PATCH-001', 'A PATCH either answer conforms to', answer, [200, 400, 422]);
      return this.expectUnchanged(real, d, before);
    }
    expectStatus('CP-PATCH-001', 'A valid PATCH', answer, [200]);
    const delta = model.patch(d, patch);
    const latest = field(answer.body, 'latest_revision_id');
    if (delta === 1) {
      if (typeof latest !== 'string' || latest === before || real.revisionIds[d.slot]!.includes(latest)) {
        // The listing tells which rule broke: a revision the PATCH made that latest_revision_id does not name, or none made.
        const listed = field((await real.api.revisions(real.ids[d.slot]!)).body, 'resources');
        const made = Array.isArray(listed) && listed.some((r) => typeof field(r, 'id') === 'string' && !real.revisionIds[d.slot]!.includes(field(r, 'id') as string));
        if (made) throw new ModelMismatch('CP-REV-013', 'A revision-creating PATCH made a revision, but its latest_revision_id does not name it.', `a new revision id (not ${before})`, { latest_revision_id: latest });
        throw new ModelMismatch(triggerRule(patch), 'A revision-creating PATCH answered without a new latest_revision_id.', `a new revision id (not ${before})`, { latest_revision_id: latest });
      }
      real.revisionIds[d.slot]!.push(latest);
      expectMembers('CP-REV-014', 'The patched deployment’s source_revision_config', field(answer.body, 'source_revision_config'), d.latestSet);
    } else if (latest !== before) {
      throw new ModelMismatch(patchKindRule(patch), 'A PATCH without revision triggers changed latest_revision_id.', { latest_revision_id: before }, { latest_revision_id: latest });
    }
  }
  /** A refused PATCH changes nothing: no revision was created. */
  private async expectUnchanged(real: ControlPlaneReal, d: ModelDeployment, before: string): Promise<void> {
    const read = await real.api.get(real.ids[d.slot]!);
    const latest = field(read.body, 'latest_revision_id');
    if (latest !== before) throw new ModelMismatch('CP-ERR-007', 'A refused PATCH created a revision.', { latest_revision_id: before }, { latest_revision_id: latest });
  }
  toString(): string {
    return `patch(#${this.pick}, ${JSON.stringify(this.bySource)})`;
  }
}

/** The trigger row a revision-creating patch exercises (CP-REV-008 when several). */
export function triggerRule(patch: PatchBody): string {
  const revision = isObject(patch.source_revision_config) ? patch.source_revision_config : {};
  const rows = [
    ...(['repo_ref', 'graph_config_path', 'image_uri', 'source_tarball_path'] as const).filter((m) => revision[m] != null).map((m) => TRIGGERS[m]),
    ...(patch.secrets != null ? [TRIGGERS.secrets] : []),
    ...(isObject(patch.source_config) && patch.source_config.resource_spec != null ? [TRIGGERS.resource_spec] : []),
  ];
  return rows.length === 1 ? rows[0]! : 'CP-REV-008';
}

/** The no-revision rule a patch without triggers exercises. */
function patchKindRule(patch: PatchBody): string {
  if (Object.keys(patch).length === 0) return 'CP-REV-010';
  return isObject(patch.source_config) && Object.keys(patch.source_config).length > 0 ? 'CP-REV-009' : 'CP-REV-011';
}

class ReadCommand implements Command {
  constructor(readonly pick: number) {}
  check(model: Readonly<ControlPlaneModel>): boolean {
    return model.live().length > 0;
  }
  async run(model: ControlPlaneModel, real: ControlPlaneReal): Promise<void> {
    const d = model.pick(this.pick)!;
    const answer = await real.api.get(real.ids[d.slot]!);
    expectStatus('CP-READ-001', 'GET /v2/deployments/{id}', answer, [200]);
    if (field(answer.body, 'name') !== d.view.name || field(answer.body, 'source') !== d.view.source) {
      throw new ModelMismatch('CP-IMM-001', 'The deployment read back has another name or source.', { name: d.view.name, source: d.view.source }, answer.body);
    }
    if (field(answer.body, 'latest_revision_id') !== latestKnown(real, d)) {
      throw new ModelMismatch('CP-REV-013', 'latest_revision_id is not the latest revision created.', { latest_revision_id: latestKnown(real, d) }, { latest_revision_id: field(answer.body, 'latest_revision_id') });
    }
    expectMembers('CP-REV-014', 'The deployment’s source_revision_config', field(answer.body, 'source_revision_config'), d.latestSet);
  }
  toString(): string {
    return `read(#${this.pick})`;
  }
}

/** A listed revision as evidence: its id with the fields that order it and say where it is. */
function revisionSummary(revision: unknown): Record<string, unknown> {
  return { id: field(revision, 'id'), created_at: field(revision, 'created_at'), status: field(revision, 'status') };
}

class ListRevisionsCommand implements Command {
  constructor(readonly pick: number) {}
  check(model: Readonly<ControlPlaneModel>): boolean {
    return model.live().length > 0;
  }
  async run(model: ControlPlaneModel, real: ControlPlaneReal): Promise<void> {
    const d = model.pick(this.pick)!;
    const answer = await real.api.revisions(real.ids[d.slot]!);
    expectStatus('CP-REVL-001', 'GET /v2/deployments/{id}/revisions', answer, [200]);
    const resources = field(answer.body, 'resources');
    if (!Array.isArray(resources)) throw new ModelMismatch('CP-REVL-001', 'The revisions listing has no resources array.', '{resources: [...]}', answer.body);
    const ids = resources.map((r) => field(r, 'id'));
    const expected = [...real.revisionIds[d.slot]!].reverse();
    if (ids.length !== d.revisions) {
      // Extra revisions all older than the create's were made by the create (CP-REV-001). Otherwise,
      // after PATCHes, which step made the count differ is not known: the sequence rule's own finding.
      const byCreate = ids.length > expected.length && expected.every((id, i) => ids[i] === id);
      const rule = real.patched.has(d.slot) && !byCreate ? 'CP-SEQ-001' : 'CP-REV-001';
      const seen = { count: ids.length, revisions: resources.map(revisionSummary) };
      throw new ModelMismatch(rule, `The deployment has ${ids.length} revisions; the requests made should have created ${d.revisions}.`, { count: d.revisions, made_by_this_sequence: expected.map((id) => ({ id })) }, seen);
    }
    if (ids.some((id, i) => id !== expected[i])) {
      throw new ModelMismatch('CP-REVL-002', 'The revisions listing is not the revisions created, newest first.', { newest_first: expected.map((id) => ({ id })) }, { resources: resources.map(revisionSummary) });
    }
    expectMembers('CP-REVL-005', 'The newest revision’s source_revision_config', revisionConfigOf(resources[0]), d.latestSet);
  }
  toString(): string {
    return `revisions(#${this.pick})`;
  }
}

class DeleteCommand implements Command {
  constructor(readonly pick: number) {}
  check(model: Readonly<ControlPlaneModel>): boolean {
    return model.live().length > 0;
  }
  async run(model: ControlPlaneModel, real: ControlPlaneReal): Promise<void> {
    const d = model.pick(this.pick)!;
    const answer = await real.api.delete(real.ids[d.slot]!);
    expectStatus('CP-DEL-001', 'DELETE /v2/deployments/{id}', answer, [204]);
    model.delete(d);
    const read = await real.api.get(real.ids[d.slot]!);
    if (!is4xx(read)) throw new ModelMismatch('CP-DEL-002', 'GET after DELETE (and after any AWAITING_DELETE) was not refused.', 'a 4xx status', read);
  }
  toString(): string {
    return `delete(#${this.pick})`;
  }
}

class ReadDeletedCommand implements Command {
  constructor(readonly pick: number) {}
  check(model: Readonly<ControlPlaneModel>): boolean {
    return model.deleted().length > 0;
  }
  async run(model: ControlPlaneModel, real: ControlPlaneReal): Promise<void> {
    const d = model.pickDeleted(this.pick)!;
    const id = real.ids[d.slot]!;
    const revisions = await real.api.revisions(id);
    if (!is4xx(revisions)) throw new ModelMismatch('CP-DEL-002', 'The revisions of a deleted deployment were not refused.', 'a 4xx status', revisions);
    const patched = await real.api.patch(id, {});
    expectStatus('CP-DEL-002', 'PATCH of a deleted deployment', patched, [404]);
  }
  toString(): string {
    return `readDeleted(#${this.pick})`;
  }
}

/** For each valid source, a PATCH a deployment of that source is sent. */
function patchesBySource(ctx: GeneratorContext): fc.Arbitrary<Partial<Record<Source, PatchBody>>> {
  const perSource = validSources(ctx).map((source) => {
    // Revision triggers weigh most: a trigger that creates no revision is the state bug to find.
    const triggers = [...triggersFor(source).map((t) => triggerPatch(ctx, t))];
    if (triggersFor(source).length >= 2) triggers.push(combinedTriggerPatch(ctx, source).map((c) => c.patch));
    const patch = fc.oneof(
      { arbitrary: fc.oneof(...triggers), weight: 5 },
      { arbitrary: nonTriggerPatch(source), weight: 1 },
      { arbitrary: invalidPatch(ctx, source).map((i) => i.patch), weight: 1 },
    );
    return [source, patch] as const;
  });
  return fc.record(Object.fromEntries(perSource)) as fc.Arbitrary<Partial<Record<Source, PatchBody>>>;
}

/** A create of any valid source: how every sequence starts, so its other steps have something to act on. */
export function createCommand(ctx: GeneratorContext): fc.Arbitrary<Command> {
  return fc.oneof(...validSources(ctx).map((source) => validCreateFor(ctx, source))).map((body) => new CreateCommand(body));
}

/**
 * The command arbitraries of a sequence on the target described by `ctx`, as one weighted choice:
 * PATCHes and listings most often, since they exercise section 3's rules. Without `creates` no
 * step after the first creates a deployment (a sequence within a budget). With `waitsAllowed`, a
 * PATCH to a deployment whose newest revision may still be in progress is skipped once that many
 * have been sent (CP_SEQUENCES.refused).
 */
export function controlPlaneCommands(ctx: GeneratorContext, creates = true, waitsAllowed?: number): fc.Arbitrary<Command>[] {
  const pick = fc.nat({ max: 7 });
  return [
    fc.oneof(
      ...(creates ? [{ arbitrary: createCommand(ctx), weight: 1 }] : []),
      { arbitrary: fc.tuple(pick, patchesBySource(ctx)).map(([p, bySource]): Command => new PatchCommand(p, bySource, ctx, waitsAllowed)), weight: 7 },
      { arbitrary: pick.map((p): Command => new ReadCommand(p)), weight: 2 },
      { arbitrary: pick.map((p): Command => new ListRevisionsCommand(p)), weight: 3 },
      { arbitrary: pick.map((p): Command => new DeleteCommand(p)), weight: 1 },
      { arbitrary: pick.map((p): Command => new ReadDeletedCommand(p)), weight: 1 },
    ),
  ];
}

/**
 * The size of the conformance suite's sequence property: commands per sequence, and sequences for
 * the `--runs` asked (each sequence creates deployments, so at most 10). The detection-rate test
 * (test/generators/detection-rate.test.ts) measures what these catch over 100 seeds.
 */
export const CP_SEQUENCES = {
  maxCommands: 10,
  runs: (asked: number): number => Math.max(3, Math.min(asked, 10)),
  /** Where the profile limits what the run creates (a budget): one sequence on one deployment (no create after the first), of at most 6 steps, two of them budgetedLead's. */
  limited: { runs: 1, maxCommands: 6 },
  /**
   * On a target that refuses a revision-creating PATCH while a revision is in progress, every
   * PATCH to a deployment whose newest revision may still be building waits for it first: a build
   * in a row each (14 minutes on a real platform). A sequence sends at most this many such PATCHes;
   * its other steps (reads, listings, creates, deletes, PATCHes to a deployment already waited for)
   * are not limited. Twice as many sequences (they run side by side) make up for the steps the
   * limit skips: the detection-rate test holds them to at least the catch rate of the unlimited ones.
   */
  refused: { waits: 2, runs: (asked: number): number => 2 * CP_SEQUENCES.runs(asked) },
};

/**
 * The steps a sequence within a budget starts with: a PATCH of several revision triggers at once,
 * then the revisions listing. One short random sequence rarely draws that pair, and a target that
 * makes two revisions for such a PATCH shows it only in a listing after it (CP-SEQ-001).
 */
function budgetedLead(ctx: GeneratorContext, waitsAllowed?: number): fc.Arbitrary<Command[]> {
  const perSource = validSources(ctx).map((source) => {
    const triggers = triggersFor(source);
    const patch = triggers.length >= 2 ? combinedTriggerPatch(ctx, source).map((c) => c.patch) : fc.oneof(...triggers.map((t) => triggerPatch(ctx, t)));
    return [source, patch] as const;
  });
  const bySource = fc.record(Object.fromEntries(perSource)) as fc.Arbitrary<Partial<Record<Source, PatchBody>>>;
  return bySource.map((patches): Command[] => [new PatchCommand(0, patches, ctx, waitsAllowed), new ListRevisionsCommand(0)]);
}

/**
 * Sequences of at most `maxCommands` steps after a first create; without `creates` (a sequence
 * within a budget), no other create, and the first two steps are budgetedLead's. `waitsAllowed`:
 * see controlPlaneCommands.
 */
export function controlPlaneSequences(ctx: GeneratorContext, maxCommands: number, creates = true, waitsAllowed?: number): fc.Arbitrary<{ commands: Command[]; toString(): string }> {
  const lead = creates ? fc.constant([]) : budgetedLead(ctx, waitsAllowed);
  const rest = fc.commands(controlPlaneCommands(ctx, creates, waitsAllowed), { maxCommands: creates ? maxCommands : maxCommands - 2 });
  return fc.tuple(createCommand(ctx), lead, rest).map(([first, opening, others]) => {
    const commands = [first, ...opening, ...others];
    return { commands, toString: () => commands.map(String).join(', ') };
  });
}

/** A fresh model and real side for one sequence. */
export function newSequence(api: ControlPlaneApi): { model: ControlPlaneModel; real: ControlPlaneReal } {
  return { model: new ControlPlaneModel(), real: { api, ids: [], revisionIds: [], patched: new Set() } };
}
