// What two nights' failure messages are compared by in `apc report diff`: the message with the ids
// a run makes up replaced by placeholders. A run names its resources after its own id
// (`apc-1a2b3c-…`, conformance/check-exchanges.ts `name`), and a target gives each deployment,
// revision, assistant or thread an id of its own, so the same failure names different ids every
// night. Messages that differ only there are the same failure; the report keeps the ids.

/** Names a run gives what it creates: its id (draft.ts: `apc-` and 6 hex digits), then a hint and a suffix. */
const RUN_NAME = /\bapc-[0-9a-f]{6}(?:-[a-z0-9-]*[a-z0-9])?\b/g;
/** A UUID, the usual form of the ids a target generates, also where a message cut it short. */
const UUID = /\b[0-9a-f]{8}(?:-[0-9a-f]{1,12}){1,4}\b/gi;
/**
 * Other generated ids (ULIDs, 24-digit hex object ids, `asst_…` keys): a word of 16 or more letters,
 * digits and underscores holding both a letter and a digit. Rule ids (`CP-REV-001`), numbers and
 * statuses are shorter or lack one of the two, so they still count.
 */
const LONG_ID = /\b(?=[A-Za-z0-9_]*[0-9])(?=[A-Za-z0-9_]*[A-Za-z])[A-Za-z0-9_]{16,}\b/g;

/** The message as a diff compares it: run names and generated ids as placeholders. */
export function comparableMessage(message: string): string {
  return message.replace(RUN_NAME, '<run name>').replace(UUID, '<id>').replace(LONG_ID, '<id>');
}
