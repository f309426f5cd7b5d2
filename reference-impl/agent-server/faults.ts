// Fault switches of the agent server: deliberate deviations from the spec that the harness's
// negative self-tests turn on (`ctx.faults`) to prove each check catches its violation.
// Each is described in faults.md; the code implementing one is marked `fault:`.
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
  graphNameRefused: 'as.graph-name-refused',
  statelessRunPersists: 'as.stateless-run-persists',
  searchIgnoresMetadata: 'as.search-ignores-metadata',
  versionNot1: 'as.version-not-1',
} as const;

export const AGENT_SERVER_FAULTS: readonly string[] = Object.values(FAULTS);
