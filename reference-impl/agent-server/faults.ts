// Fault switches of the agent server: deliberate deviations from the spec that the harness's
// negative self-tests turn on (`ctx.faults`) to prove each check catches its violation.
// Each is one record below (faults.md's tables are rendered from them); the code implementing one
// is marked `fault:` and names it through FAULTS.
import type { FaultSwitch } from '../fault-switch.ts';

export const AGENT_SERVER_FAULT_SWITCHES = [
  { id: 'as.patch-merges',
    what: '`PATCH /assistants/{id}` builds the new version from the previous one: omitted fields are kept, `context`, `metadata` and `config` are merged key ' +
      'by key.',
    breaks: 'Spec 3: a new version comes from the supplied configuration alone.', family: 'assistant versions',
    fails: { mode: 'hosted', requirements: ['AS-ASST-003'] } },
  { id: 'as.set-latest-ignored', what: '`POST /assistants/{id}/latest` answers 200 with the assistant as it is; the active version does not change.',
    breaks: 'Spec 3: set latest makes the version active and runs use it.', family: 'assistant versions',
    fails: { mode: 'hosted', requirements: ['AS-ASST-002', 'AS-ASST-004'] } },
  { id: 'as.delete-keeps-versions',
    what: '`DELETE /assistants/{id}` answers 204 but removes nothing: the assistant, its versions and set-latest on them all still work, and search still ' +
      'lists it.',
    breaks: 'Spec 3: deleting an assistant deletes all versions.', family: 'assistant versions', fails: { mode: 'hosted', requirements: ['AS-ASST-005'] } },
  { id: 'as.metadata-not-first', what: 'The `metadata` event is sent after the first other event.',
    breaks: 'Field notes / spec 6: the stream opens with `metadata` carrying `run_id`.', family: 'sse',
    fails: { mode: 'hosted', requirements: ['AS-SSE-004', 'AS-SSE-011'] } },
  { id: 'as.no-data-line', what: 'The second event of every stream (the first after `metadata`) has no `data:` line.',
    breaks: 'Spec 6: each event has an `event:` and a `data:` line.', family: 'sse', fails: { mode: 'hosted', requirements: ['AS-SSE-002'] } },
  { id: 'as.wrong-content-type', what: 'Streams are sent as `text/plain; charset=utf-8`.', breaks: 'Server-sent events are `text/event-stream`.', family: 'sse',
    fails: { mode: 'hosted', requirements: ['AS-SSE-001'] } },
  { id: 'as.stream-never-ends', what: 'Every event is sent, then the response stays open with nothing more sent.',
    breaks: 'Field notes: the response closes after the last event.', family: 'experiments' },
  { id: 'as.stream-stalls', what: 'Only the `metadata` event is sent; then nothing, and the response never ends.', breaks: 'The run\'s events must arrive.',
    family: 'experiments' },
  { id: 'as.updates-not-keyed-by-node', what: '`updates` events carry the node\'s update itself instead of `{<node name>: <update>}`.',
    breaks: 'Spec 6: updates data maps a node name to its update.', family: 'sse', fails: { mode: 'hosted', requirements: ['AS-SSE-005'] } },
  { id: 'as.stream-mode-list-refused', what: 'A `stream_mode` given as a list is refused with 422 (a single string still works).',
    breaks: 'Spec 6: a list of stream modes is accepted.', family: 'sse', fails: { mode: 'hosted', requirements: ['AS-SSE-007'] } },
  { id: 'as.stream-mode-string-refused', what: 'A thread run whose `stream_mode` is one string is refused with 400 (a list, and stateless runs, still work).',
    breaks: 'Spec 4.2: `stream_mode` is a string or an array of strings.', family: 'sse', fails: { mode: 'hosted', requirements: ['AS-SSE-006'] } },
  { id: 'as.graph-name-refused', what: 'A graph id in place of an assistant id is unknown (404), in runs and in `GET /assistants/{id}`.',
    breaks: 'Spec 4.2: a graph name as `assistant_id` uses the graph\'s default assistant.', family: 'runs',
    fails: { mode: 'hosted', requirements: ['AS-GRAPH-001', 'AS-GRAPH-002'] } },
  { id: 'as.stateless-run-persists', family: 'runs',
    what: '`POST /runs/stream` saves its end state in a new thread, named in `content-location` (`/threads/<t>/runs/<r>`) and readable with `GET ' +
      '/threads/<t>` and `POST /threads/search`.',
    breaks: 'Spec 1.B: a stateless run has no state persistence.', fails: { mode: 'hosted', requirements: ['AS-RUN-004'] } },
  { id: 'as.search-ignores-metadata', what: '`POST /assistants/search` ignores `metadata` and returns every assistant (paged).',
    breaks: 'Spec 4.2: search by metadata.', family: 'assistants and threads', fails: { mode: 'hosted', requirements: ['AS-SRCH-001'] } },
  { id: 'as.version-not-1', what: 'Versions are shown one higher: a new assistant is version 2, and `/latest` takes the shown number.',
    breaks: 'Spec 3: creating an assistant gives version 1.', family: 'assistant versions', fails: { mode: 'hosted', requirements: ['AS-ASST-002'] } },
] as const satisfies readonly FaultSwitch[];

export type AgentServerFault = (typeof AGENT_SERVER_FAULT_SWITCHES)[number]['id'];
export const AGENT_SERVER_FAULTS: readonly AgentServerFault[] = AGENT_SERVER_FAULT_SWITCHES.map((s) => s.id);

/** The switches by the names the code uses. */
export const FAULTS = {
  patchMerges: 'as.patch-merges',
  setLatestIgnored: 'as.set-latest-ignored',
  deleteKeepsVersions: 'as.delete-keeps-versions',
  metadataNotFirst: 'as.metadata-not-first',
  noDataLine: 'as.no-data-line',
  wrongContentType: 'as.wrong-content-type',
  streamNeverEnds: 'as.stream-never-ends',
  streamStalls: 'as.stream-stalls',
  updatesNotKeyedByNode: 'as.updates-not-keyed-by-node',
  streamModeListRefused: 'as.stream-mode-list-refused',
  streamModeStringRefused: 'as.stream-mode-string-refused',
  graphNameRefused: 'as.graph-name-refused',
  statelessRunPersists: 'as.stateless-run-persists',
  searchIgnoresMetadata: 'as.search-ignores-metadata',
  versionNot1: 'as.version-not-1',
} as const satisfies Record<string, AgentServerFault>;


