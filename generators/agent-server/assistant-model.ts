// The pure model of section 3's assistant versions: creating makes version 1 active, an update
// adds a version holding exactly the supplied context and makes it active, set-latest makes a
// given version active, delete removes the assistant with all its versions.
import type { JsonObject } from './payloads.ts';

/** How the active version came to be active; names the rule a wrong run would break. */
export type Activation = 'create' | 'update' | 'set-latest';

export const RULE_OF: Record<Activation, string> = {
  create: 'AS-ASST-002',
  update: 'AS-ASST-003',
  'set-latest': 'AS-ASST-004',
};

export interface ModelAssistant {
  /** Index in creation order; the real id is kept by whoever talks to the server. */
  slot: number;
  /** versions[n - 1] is version n. */
  versions: JsonObject[];
  active: number;
  activatedBy: Activation;
  deleted: boolean;
}

export class AssistantModel {
  readonly assistants: ModelAssistant[] = [];

  live(): ModelAssistant[] {
    return this.assistants.filter((a) => !a.deleted);
  }

  /** The live assistant a raw pick designates (picks stay valid as the set changes). */
  pick(raw: number): ModelAssistant | undefined {
    const live = this.live();
    return live.length === 0 ? undefined : live[raw % live.length];
  }

  create(context: JsonObject): ModelAssistant {
    const assistant: ModelAssistant = { slot: this.assistants.length, versions: [context], active: 1, activatedBy: 'create', deleted: false };
    this.assistants.push(assistant);
    return assistant;
  }

  update(assistant: ModelAssistant, context: JsonObject): void {
    assistant.versions.push(context);
    assistant.active = assistant.versions.length;
    assistant.activatedBy = 'update';
  }

  setLatest(assistant: ModelAssistant, version: number): void {
    if (version < 1 || version > assistant.versions.length) throw new RangeError(`version ${version} of ${assistant.versions.length}`);
    assistant.active = version;
    assistant.activatedBy = 'set-latest';
  }

  delete(assistant: ModelAssistant): void {
    assistant.deleted = true;
  }

  activeContext(assistant: ModelAssistant): JsonObject {
    return assistant.versions[assistant.active - 1]!;
  }

  /** Contexts of the assistant's versions other than the active one. */
  otherContexts(assistant: ModelAssistant): JsonObject[] {
    return assistant.versions.filter((_, i) => i !== assistant.active - 1);
  }
}
