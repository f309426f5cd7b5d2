// Stored records as the API shows them.
import { FAULTS } from './faults.ts';
import type { AssistantRecord, AssistantVersion, ThreadRecord } from './store.ts';

/** fault `as.version-not-1`: versions are shown one higher, so the first is 2. */
export function versionShift(faults: ReadonlySet<string>): number {
  return faults.has(FAULTS.versionNot1) ? 1 : 0;
}

export function versionView(record: AssistantVersion, faults: ReadonlySet<string>) {
  return {
    assistant_id: record.assistant_id,
    graph_id: record.graph_id,
    name: record.name,
    description: record.description,
    context: record.context,
    metadata: record.metadata,
    config: record.config,
    version: record.version + versionShift(faults),
    created_at: record.created_at,
  };
}

/** An assistant: its active version as a version shows it, and when the assistant last changed. */
export function assistantView(record: AssistantRecord, faults: ReadonlySet<string>) {
  return { ...versionView(record, faults), updated_at: record.updated_at };
}

export function threadView(record: ThreadRecord) {
  return {
    thread_id: record.thread_id,
    created_at: record.created_at,
    updated_at: record.updated_at,
    metadata: record.metadata,
    status: record.status,
    config: {},
    values: record.values,
  };
}

export function threadStateView(record: ThreadRecord) {
  return {
    values: record.values ?? {},
    next: [],
    tasks: [],
    metadata: {},
    created_at: record.values === null ? null : record.updated_at,
    checkpoint: record.checkpoint_id === null ? null : { thread_id: record.thread_id, checkpoint_ns: '', checkpoint_id: record.checkpoint_id },
    parent_checkpoint: null,
    interrupts: [],
  };
}
