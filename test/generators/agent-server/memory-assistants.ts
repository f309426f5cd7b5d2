// An in-memory AssistantApi for the generator tests: right by default, or wrong in one chosen
// way, so the command sequences can be shown to pass a right server and catch each wrong one.
import { randomUUID } from 'node:crypto';
import type { AssistantApi } from '../../../generators/agent-server/assistant-commands.ts';
import type { AssistantDraft, JsonObject } from '../../../generators/agent-server/payloads.ts';

export type Defect = 'merge-on-update' | 'ignore-set-latest' | 'keep-after-delete' | 'search-everything' | 'first-version-0' | 'run-uses-first-version' | 'search-empty';

interface Stored {
  id: string;
  versions: JsonObject[];
  active: number;
  deleted: boolean;
}

export function memoryAssistants(defect?: Defect): AssistantApi {
  // One assistant of someone else, which a search by this sequence's tag must not list.
  const store: Stored[] = [{ id: randomUUID(), versions: [{}], active: 0, deleted: false }];
  const ours = new Set<string>();
  const find = (id: string) => store.find((s) => s.id === id && (defect === 'keep-after-delete' || !s.deleted));
  const base = defect === 'first-version-0' ? 0 : 1;
  return {
    async create(draft: AssistantDraft) {
      const stored = { id: randomUUID(), versions: [draft.context], active: 0, deleted: false };
      store.push(stored);
      ours.add(stored.id);
      return { id: stored.id, context: draft.context };
    },
    async update(id, context) {
      const s = find(id)!;
      const next = defect === 'merge-on-update' ? { ...s.versions[s.active], ...context } : context;
      s.versions.push(next);
      s.active = s.versions.length - 1;
      return { context: next };
    },
    async setLatest(id, version) {
      const s = find(id);
      const index = version - base;
      if (!s || index < 0 || index >= s.versions.length) return 'refused';
      if (defect !== 'ignore-set-latest') s.active = index;
      return 'accepted';
    },
    async delete(id) {
      find(id)!.deleted = true;
    },
    async search({ limit, offset }) {
      if (defect === 'search-empty') return [];
      const listed = store.filter((s) => !s.deleted && (defect === 'search-everything' || ours.has(s.id)));
      return listed.slice(offset, offset + limit).map((s) => s.id);
    },
    async runContext(id) {
      const s = find(id)!;
      return defect === 'run-uses-first-version' ? s.versions[0] : s.versions[s.active];
    },
  };
}
