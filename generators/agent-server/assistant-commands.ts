// Operation sequences on assistants (`fc.commands`), each checked against the pure model of
// assistant-model.ts. The commands talk to an AssistantApi they are given: the conformance
// suite passes one that speaks HTTP to the target, unit tests pass an in-memory one. A
// disagreement with the model is a ModelMismatch naming the rule it breaks.
import fc from 'fast-check';
import { ModelMismatch } from '../model-mismatch.ts';
import { AssistantModel, RULE_OF, type ModelAssistant } from './assistant-model.ts';
import { assistantDraft, compareContext, context, type AssistantDraft, type JsonObject } from './payloads.ts';

export interface AssistantApi {
  /** POST /assistants with the draft (plus the suite's name and tags). */
  create(draft: AssistantDraft): Promise<{ id: string; context: unknown }>;
  /** PATCH /assistants/{id} with the whole new context. */
  update(id: string, context: JsonObject): Promise<{ context: unknown }>;
  /** POST /assistants/{id}/latest. */
  setLatest(id: string, version: number): Promise<'accepted' | 'refused'>;
  /** DELETE /assistants/{id}. */
  delete(id: string): Promise<void>;
  /** One page of POST /assistants/search by this sequence's own metadata tag: assistant ids. */
  search(page: { limit: number; offset: number }): Promise<string[]>;
  /** The context a run by assistant_id used, as the fixture graph echoes it. */
  runContext(id: string): Promise<unknown>;
}

export interface AssistantReal {
  api: AssistantApi;
  /** Server ids by model slot. */
  ids: string[];
  /**
   * The rules a command of the sequence judged on something there to judge: a sequence that
   * agrees with the model is a check of these only. Paging (AS-SRCH-002) on an empty listing, say,
   * judged nothing: a search that answers [] to a sequence whose assistants were all deleted agrees.
   */
  judged: Set<string>;
}

type AssistantCommand = fc.AsyncCommand<AssistantModel, AssistantReal>;

/** At most this many live assistants per sequence: enough for search pages, cheap to clean up. */
const MAX_LIVE = 4;

function expectContext(requirement: string, what: string, observed: unknown, expected: JsonObject, others: JsonObject[]): void {
  const result = compareContext(observed, expected, others);
  if (result.ok) return;
  const problems = [
    result.wrong.length > 0 ? `keys missing or different: ${result.wrong.join(', ')}` : '',
    result.carried.length > 0 ? `keys carried over from another version: ${result.carried.join(', ')}` : '',
  ].filter(Boolean);
  throw new ModelMismatch(requirement, `${what} is not the expected version's context (${problems.join('; ') || 'not an object'}).`, expected, observed);
}

function idOf(real: AssistantReal, assistant: ModelAssistant): string {
  return real.ids[assistant.slot]!;
}

class CreateCommand implements AssistantCommand {
  constructor(readonly draft: AssistantDraft) {}
  check(model: Readonly<AssistantModel>): boolean {
    return model.live().length < MAX_LIVE;
  }
  async run(model: AssistantModel, real: AssistantReal): Promise<void> {
    const created = await real.api.create(this.draft);
    expectContext('AS-ASST-001', 'The created assistant’s context', created.context, this.draft.context, []);
    real.judged.add('AS-ASST-001');
    real.ids[model.create(this.draft.context).slot] = created.id;
  }
  toString(): string {
    return `create(${JSON.stringify(this.draft.context)})`;
  }
}

class UpdateCommand implements AssistantCommand {
  constructor(
    readonly pick: number,
    readonly context: JsonObject,
  ) {}
  check(model: Readonly<AssistantModel>): boolean {
    return model.live().length > 0;
  }
  async run(model: AssistantModel, real: AssistantReal): Promise<void> {
    const assistant = model.pick(this.pick)!;
    const updated = await real.api.update(idOf(real, assistant), this.context);
    expectContext('AS-ASST-003', 'The updated assistant’s context', updated.context, this.context, assistant.versions);
    real.judged.add('AS-ASST-003');
    model.update(assistant, this.context);
  }
  toString(): string {
    return `update(#${this.pick}, ${JSON.stringify(this.context)})`;
  }
}

/** Checks that a run by assistant_id uses the model's active version. */
async function expectRunUsesActive(model: AssistantModel, real: AssistantReal, assistant: ModelAssistant): Promise<void> {
  const used = await real.api.runContext(idOf(real, assistant));
  expectContext(
    RULE_OF[assistant.activatedBy],
    `The context a run by assistant_id used (version ${assistant.active} of ${assistant.versions.length} should be active)`,
    used,
    model.activeContext(assistant),
    model.otherContexts(assistant),
  );
  real.judged.add(RULE_OF[assistant.activatedBy]);
}

/** Makes another version active (the active one when there is no other), then runs. */
class SetLatestCommand implements AssistantCommand {
  constructor(
    readonly pick: number,
    readonly versionPick: number,
  ) {}
  check(model: Readonly<AssistantModel>): boolean {
    return model.live().length > 0;
  }
  async run(model: AssistantModel, real: AssistantReal): Promise<void> {
    const assistant = model.pick(this.pick)!;
    const count = assistant.versions.length;
    const others = Array.from({ length: count }, (_, i) => i + 1).filter((v) => v !== assistant.active || count === 1);
    const version = others[this.versionPick % others.length]!;
    const outcome = await real.api.setLatest(idOf(real, assistant), version);
    if (outcome !== 'accepted') {
      throw new ModelMismatch(
        version === 1 ? 'AS-ASST-002' : 'AS-ASST-004',
        `Setting version ${version} of an assistant with ${count} version(s) as latest was refused.`,
        `version ${version} accepted`,
        `setting version ${version} as latest: ${outcome}`,
      );
    }
    real.judged.add(version === 1 ? 'AS-ASST-002' : 'AS-ASST-004');
    model.setLatest(assistant, version);
    await expectRunUsesActive(model, real, assistant);
  }
  toString(): string {
    return `setLatest(#${this.pick}, v#${this.versionPick})`;
  }
}

class DeleteCommand implements AssistantCommand {
  constructor(readonly pick: number) {}
  check(model: Readonly<AssistantModel>): boolean {
    return model.live().length > 0;
  }
  async run(model: AssistantModel, real: AssistantReal): Promise<void> {
    const assistant = model.pick(this.pick)!;
    const id = idOf(real, assistant);
    await real.api.delete(id);
    model.delete(assistant);
    // Every version went with it: none can be made active any more.
    for (const version of new Set([1, assistant.versions.length])) {
      const outcome = await real.api.setLatest(id, version);
      if (outcome !== 'refused') {
        throw new ModelMismatch('AS-ASST-005', `After deleting an assistant, setting its version ${version} as latest was accepted.`, 'refused (4xx)', `setting version ${version} as latest: ${outcome}`);
      }
    }
    real.judged.add('AS-ASST-005');
  }
  toString(): string {
    return `delete(#${this.pick})`;
  }
}

/** Pages of one search; too many pages means offset is ignored. */
const MAX_PAGES = 3 * MAX_LIVE + 2;

class SearchCommand implements AssistantCommand {
  constructor(readonly limit: number) {}
  check(): boolean {
    return true;
  }
  async run(model: AssistantModel, real: AssistantReal): Promise<void> {
    const listed: string[] = [];
    // Assistants this sequence never made are the filter's fault (AS-SRCH-001), whatever the paging does after.
    const made = new Set(model.assistants.map((a) => idOf(real, a)));
    for (let page = 0; ; page += 1) {
      const ids = await real.api.search({ limit: this.limit, offset: listed.length });
      if (ids.some((id) => !made.has(id))) {
        const expected = { assistant_ids: model.live().map((a) => idOf(real, a)) };
        throw new ModelMismatch('AS-SRCH-001', 'Search by metadata listed assistants without that metadata.', expected, { assistant_ids: ids, not_made_by_this_sequence: ids.filter((id) => !made.has(id)) });
      }
      if (ids.length > this.limit) {
        throw new ModelMismatch('AS-SRCH-002', `A search with limit ${this.limit} listed ${ids.length} assistants.`, `at most ${this.limit} assistants`, { listed: ids.length, assistant_ids: ids });
      }
      listed.push(...ids);
      if (ids.length < this.limit) break;
      if (page >= MAX_PAGES) {
        throw new ModelMismatch('AS-SRCH-002', `Paging with limit ${this.limit} never ended: offset seems ignored.`, 'a short last page', { pages: page + 1, assistant_ids: listed });
      }
    }
    // An offset past the end lists nothing.
    const beyond = await real.api.search({ limit: this.limit, offset: listed.length + this.limit });
    if (beyond.length > 0) {
      throw new ModelMismatch('AS-SRCH-002', `A search with offset ${listed.length + this.limit}, past the ${listed.length} listed, listed ${beyond.length}.`, 'no assistant', { assistant_ids: beyond });
    }
    const duplicates = listed.filter((id, i) => listed.indexOf(id) !== i);
    if (duplicates.length > 0) {
      throw new ModelMismatch('AS-SRCH-002', `Pages of one search (limit ${this.limit}) listed an assistant twice.`, 'each assistant once', { assistant_ids: listed, listed_twice: duplicates });
    }
    const live = new Set(model.live().map((a) => idOf(real, a)));
    const deleted = new Set(model.assistants.filter((a) => a.deleted).map((a) => idOf(real, a)));
    const stillListed = listed.filter((id) => deleted.has(id));
    if (stillListed.length > 0) {
      throw new ModelMismatch('AS-ASST-005', 'Search still lists a deleted assistant.', { assistant_ids: [...live] }, { assistant_ids: listed, deleted: stillListed });
    }
    const missing = [...live].filter((id) => !listed.includes(id));
    const foreign = listed.filter((id) => !live.has(id));
    if (missing.length > 0 || foreign.length > 0) {
      throw new ModelMismatch('AS-SRCH-001', 'Search by metadata did not list exactly the assistants carrying that metadata.', { assistant_ids: [...live] }, { assistant_ids: listed, missing, not_carrying_it: foreign });
    }
    // Rules about the result set judge something only on a set with members (issue 37: never passed on an empty one).
    if (live.size > 0) real.judged.add('AS-SRCH-001');
    if (deleted.size > 0) real.judged.add('AS-ASST-005');
    if (listed.length > 0) real.judged.add('AS-SRCH-002');
  }
  toString(): string {
    return `search(limit ${this.limit})`;
  }
}

class RunCommand implements AssistantCommand {
  constructor(readonly pick: number) {}
  check(model: Readonly<AssistantModel>): boolean {
    return model.live().length > 0;
  }
  async run(model: AssistantModel, real: AssistantReal): Promise<void> {
    await expectRunUsesActive(model, real, model.pick(this.pick)!);
  }
  toString(): string {
    return `run(#${this.pick})`;
  }
}

/** The size of the conformance suite's sequence property: commands per sequence, and sequences for the `--runs` asked. */
export const AS_SEQUENCES = {
  maxCommands: 8,
  runs: (asked: number): number => asked,
};

/** Sequences of create, update, set-latest, delete, search and run. */
export function assistantCommands(maxCommands = 8): fc.Arbitrary<Iterable<AssistantCommand>> {
  // Few assistants, picked by small numbers, and updates and set-latests weighted up: a state bug
  // shows only when one assistant gets several versions and then switches between them.
  const pick = fc.nat({ max: 2 });
  // Each version carries a marker of its own, so two versions never look alike by chance and a
  // run that used the wrong one always shows it. (The suite's examples cover an empty context.)
  const marked = fc.tuple(context, fc.integer({ min: 1, max: 2 ** 31 - 1 })).map(([c, mark]): JsonObject => ({ ...c, apc_mark: mark }));
  const draft = fc.tuple(assistantDraft, marked).map(([d, c]): AssistantDraft => ({ ...d, context: c }));
  // Every sequence starts with a create, so its other steps have an assistant to act on.
  const rest = fc.commands(
    [
      fc.oneof(
        { arbitrary: draft.map((d): AssistantCommand => new CreateCommand(d)), weight: 2 },
        { arbitrary: fc.tuple(pick, marked).map(([p, c]): AssistantCommand => new UpdateCommand(p, c)), weight: 4 },
        { arbitrary: fc.tuple(pick, fc.nat()).map(([p, v]): AssistantCommand => new SetLatestCommand(p, v)), weight: 4 },
        { arbitrary: pick.map((p): AssistantCommand => new DeleteCommand(p)), weight: 1 },
        // Edges beside the middle: 1, as many as can live, one more than that.
        { arbitrary: fc.oneof(fc.constantFrom(1, MAX_LIVE, MAX_LIVE + 1), fc.integer({ min: 1, max: 3 })).map((l): AssistantCommand => new SearchCommand(l)), weight: 1 },
        { arbitrary: pick.map((p): AssistantCommand => new RunCommand(p)), weight: 2 },
      ),
    ],
    { maxCommands, size: 'max' },
  );
  return fc.tuple(draft, rest).map(([first, commands]) => {
    const all = [new CreateCommand(first), ...commands];
    return Object.assign(all, { toString: () => all.map(String).join(', ') });
  });
}

/** Runs one sequence against an API, starting from an empty model; `judged` collects the rules its commands judged. */
export async function runAssistantCommands(api: AssistantApi, commands: Iterable<AssistantCommand>, judged = new Set<string>()): Promise<AssistantModel> {
  const model = new AssistantModel();
  await fc.asyncModelRun(() => ({ model, real: { api, ids: [], judged } }), commands);
  return model;
}
