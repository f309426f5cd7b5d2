// The combinations `apc selftest --kinds multi-fault` certifies: several faults of different
// families switched on at once, as real servers have them, each combination one target. Each
// component is an existing mutant (a fault switch of the reference or a proxy mutant, by id);
// components of one combination declare disjoint requirements, so a failure is credited to one
// component alone, and share the control plane's mode. `structural` marks a combination holding a
// fault of the kind real servers show: one of two legal request forms refused, an endpoint missing
// or answering 5xx, or a read that ignores its parameters. A fixed table: every run measures the same.

export interface Combination {
  id: string;
  /** Mutant ids (harness/selftest/subject-list.ts), 3 to 5. */
  components: string[];
  /** The structural fault it holds, if any (a component id). */
  structural?: string;
  /** Why these go together. */
  why: string;
}

export const COMBINATIONS: Combination[] = [
  // Within the agent server
  {
    id: 'mf.list-mode-refused-versions',
    components: ['as.stream-mode-list-refused', 'as.patch-merges', 'as.name-not-kept'],
    structural: 'as.stream-mode-list-refused',
    why: 'The list form of stream_mode refused, beside a version and a create fault: runs still read the echo by the string form.',
  },
  {
    id: 'mf.search-ignores-metadata-streams',
    components: ['as.search-ignores-metadata', 'as.metadata-not-first', 'as.delete-keeps-versions'],
    structural: 'as.search-ignores-metadata',
    why: 'Search ignores its metadata filter (a read ignoring its parameters), streams open late, deletion keeps versions.',
  },
  {
    id: 'mf.search-offset-thread-runs',
    components: ['as.search-offset-ignored', 'as.updates-not-keyed-by-node', 'as.thread-runs-forget'],
    structural: 'as.search-offset-ignored',
    why: 'Search ignores offset (a read ignoring a parameter), updates not keyed by node, thread runs that keep nothing.',
  },
  {
    id: 'mf.first-version-runs',
    components: ['as.runs-use-first-version', 'as.run-id-missing', 'as.stateless-run-persists'],
    why: 'Runs use the first version, metadata without run_id, stateless runs kept: three faults met by the same runs.',
  },
  {
    id: 'mf.agent-server-four',
    components: ['as.graph-id-defaulted', 'as.messages-mode-only-metadata', 'as.deleted-still-searchable', 'as.missing-key-accepted'],
    why: 'Four families of the agent server at once: create, streams, deletion, keys.',
  },
  {
    id: 'mf.unterminated-streams-versions',
    components: ['as.update-answers-old-context', 'as.last-event-unterminated', 'as.any-key-accepted'],
    why: 'Every stream ends without its blank line, beside a PATCH answer and a key fault judged without streams.',
  },
  // As the third-party server of issue "every deviation in one run" had them
  {
    id: 'mf.third-party-server',
    components: ['as.thread-string-mode-refused', 'as.delete-answers-500', 'as.search-ignores-metadata', 'as.thread-state-by-assistant'],
    structural: 'as.thread-string-mode-refused',
    why: 'A string stream_mode refused on thread runs, DELETE answering 500, search ignoring metadata, thread state kept by assistant.',
  },
  {
    id: 'mf.update-fails-streams',
    components: ['as.update-fails', 'as.run-id-missing', 'as.thread-run-ignores-input', 'as.any-key-accepted'],
    structural: 'as.update-fails',
    why: 'PATCH answering 500 (an endpoint failing), metadata without run_id, thread runs ignoring their input, any key accepted.',
  },
  {
    id: 'mf.string-mode-refused-across',
    components: ['as.thread-string-mode-refused', 'as.set-latest-version-from-query', 'cp.patch-422-items-without-loc', 'eu.feedback-fields-defaulted'],
    structural: 'as.thread-string-mode-refused',
    why: 'A string stream_mode refused and set-latest reading its version from the query, beside a refusal body and lenient uploads.',
  },
  // Within the control plane
  {
    id: 'mf.no-integrations-errors',
    components: ['cp.no-integrations', 'cp.source-changes', 'cp.tenant-leak'],
    structural: 'cp.no-integrations',
    why: 'A whole endpoint group missing (404), a source changed by a PATCH, reads that ignore the tenant.',
  },
  {
    id: 'mf.create-delete-listing',
    components: ['cp.create-answers-200', 'cp.resource-spec-ignored', 'cp.delete-answers-200', 'cp.revisions-oldest-first'],
    why: 'Status codes of create and delete, resource_spec rounding and revision order: four families of deployments.',
  },
  {
    id: 'mf.tags-concurrency-errors',
    components: ['cp.tag-build-on-push-accepted', 'cp.patch-lost-under-concurrency', 'cp.not-found-plain-text'],
    why: 'Source rules, concurrency and error bodies: faults of the reference itself, switched on together.',
  },
  {
    id: 'mf.patch-status-listing-tenants',
    components: ['cp.secrets-patch-202', 'cp.revisions-bare-array', 'cp.patch-400-error-member', 'cp.tenant-id-of-key'],
    why: 'A PATCH status, the revisions listing shape, a refusal body and the tenant a deployment reports.',
  },
  {
    id: 'mf.listing-lifecycle-workspace',
    components: ['cp.listing-without-secrets', 'cp.failed-build-reported-deployed', 'cp.other-workspace-can-change', 'cp.unreadable-patch-as-empty'],
    why: 'Listing, revision lifecycle, workspaces and unreadable bodies: four families of the control plane.',
  },
  {
    id: 'mf.listing-moved-create-revisions',
    components: ['cp.listing-moved-to-v1', 'cp.create-without-updated-at', 'cp.repo-ref-alone-no-revision'],
    structural: 'cp.listing-moved-to-v1',
    why: 'The deployments listing gone from /v2 (a redirect), a create answer without updated_at, a revision trigger missed.',
  },
  {
    id: 'mf.self-hosted-listeners',
    components: ['cp.no-listeners', 'cp.cpu-clamped', 'cp.listener-id-changes', 'cp.self-hosted-accepts-gitforge'],
    structural: 'cp.no-listeners',
    why: 'A self-hosted control plane without its listeners endpoint (404), with clamped CPU, a mutable listener id and gitforge accepted.',
  },
  // Across interfaces
  {
    id: 'mf.endpoints-missing-everywhere',
    components: ['as.docs-missing', 'cp.no-upload-url', 'eu.no-window-check'],
    structural: 'cp.no-upload-url',
    why: 'Missing endpoints on two interfaces (docs, upload-url) and an experiment window not checked.',
  },
  {
    id: 'mf.unknown-id-crashes-across',
    components: ['cp.unknown-id-crashes', 'cp.immutable-name-accepted', 'cp.no-revision-on-secrets', 'as.wrong-content-type'],
    structural: 'cp.unknown-id-crashes',
    why: 'Reads of unknown ids answer 500, beside immutability and revision faults and a stream content type.',
  },
  {
    id: 'mf.delete-refused-string-updates',
    components: ['as.delete-refused', 'as.graph-id-defaulted', 'as.updates-mode-without-updates', 'eu.tokens-not-null'],
    structural: 'as.delete-refused',
    why: 'Assistant deletion refused (405), a missing graph_id defaulted, string updates streams without updates, token counts not null.',
  },
  {
    id: 'mf.server-errors-graph-names',
    components: ['cp.malformed-id-server-error', 'cp.delete-keeps', 'as.graph-name-refused', 'eu.internal-dataset-accepted'],
    structural: 'cp.malformed-id-server-error',
    why: 'A malformed id answered 500 and graph names refused as assistant ids (a legal form refused), beside deletion and dataset faults.',
  },
  {
    id: 'mf.keys-versions-grouping',
    components: ['cp.no-auth', 'as.set-latest-ignored', 'eu.no-grouping'],
    why: 'No authentication on the control plane, set-latest ignored, uploads not grouped: one fault per interface.',
  },
  {
    id: 'mf.statistics-keys-graph-path',
    components: ['eu.stats-filled-at-upload', 'eu.missing-key-accepted', 'cp.graph-config-path-optional', 'as.content-type-missing'],
    why: 'Statistics and keys of uploads, a revision field not required, streams without a content type.',
  },
  {
    id: 'mf.tarballs-triggers-thread-input',
    components: ['cp.arbitrary-tarball-accepted', 'cp.empty-patch-revision', 'cp.older-revisions-lose-values', 'as.thread-run-ignores-input'],
    why: 'Tarball rules, an empty PATCH making a revision, older revisions losing values, thread runs ignoring their input.',
  },
  {
    id: 'mf.list-mode-refused-across',
    components: ['as.stream-mode-list-refused', 'eu.one-dataset-for-all', 'cp.unknown-revision-answered'],
    structural: 'as.stream-mode-list-refused',
    why: 'The list form of stream_mode refused, every upload in one dataset, unknown revisions answered.',
  },
  {
    id: 'mf.window-edges-messages',
    components: ['eu.window-edges-refused', 'as.messages-mode-only-metadata', 'cp.combined-triggers-two-revisions'],
    why: 'Window edges refused, messages streams empty, combined triggers making two revisions.',
  },
];
