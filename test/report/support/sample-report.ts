// A compliance report built through the real model (buildResults, countsOf, verdictOf) from a
// small catalogue, with every status and text a hostile target could send back: markup,
// quotes, backticks, pipes, control characters and a lone surrogate.
import type { Catalogue, Requirement } from '../../../harness/catalogue.ts';
import type { FailureRecord } from '../../../harness/conformance/failure.ts';
import { buildResults, countsOf, universeOf, verdictOf, type ComplianceReport, type TestOutcome } from '../../../harness/report/compliance.ts';
import { defaultProfile, redactedProfile } from '../../../harness/profile/profile.ts';

export const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)> & 'quote' | pipe \`tick\` \`\`\`fence\`\`\` \u0001\u0007\u001b ]]> \ud800 end`;

const req = (id: string, level: Requirement['level'], iface: Requirement['interface'], needs: string[] = []): Requirement => ({
  id,
  level,
  interface: iface,
  section: '4.1',
  statement: `Statement of ${id} about assistant_id and {deployment_id}.`,
  tags: [],
  needs,
  source: 'spec',
});

export const REQUIREMENTS: Requirement[] = [
  req('CP-DEP-001', 'MUST', 'control-plane'),
  req('CP-DEP-002', 'MUST', 'control-plane'),
  req('CP-DEP-003', 'SHOULD', 'control-plane'),
  req('CP-SRC-001', 'MUST', 'control-plane', ['source:gitforge']),
  req('AS-RUN-001', 'MUST', 'agent-server'),
  req('AS-RUN-002', 'MAY', 'agent-server'),
  req('EU-UPL-001', 'MUST', 'experiment-upload'),
  req('EU-UPL-002', 'MUST', 'experiment-upload'),
];

export const CATALOGUE: Catalogue = {
  version: '0.1.0',
  specVersion: '0.1.0',
  hash: 'a'.repeat(64),
  requirements: REQUIREMENTS,
  exclusions: [{ id: 'EU-UPL-002', topic: 'window', section: '4.3', reason: 'not observable over HTTP' }],
  gates: {},
  byId: new Map(REQUIREMENTS.map((r) => [r.id, r])),
};

export const hostileFailure = (id: string): FailureRecord => ({
  requirements: [id],
  message: `Deployment name came back changed: ${HOSTILE}`,
  expected: '"apc-run-deployment"',
  seen: HOSTILE,
  input: `{"name":${JSON.stringify(HOSTILE)}}`,
  seed: -12345,
  path: '3:1',
  repro: `apc certify --control-plane-url http://127.0.0.1:8100 --seed 42 --requirements ${id}`,
  exchanges: [
    { curl: "curl -sS -X GET 'http://127.0.0.1:8100/v2/deployments' -H \"X-Api-Key: $APC_API_KEY\"", response: 'HTTP 200 []' },
    {
      curl: `curl -sS -X POST 'http://127.0.0.1:8100/v2/deployments' -H "X-Api-Key: $APC_API_KEY" --data-raw '{"name":"x"}'`,
      response: `HTTP 201 {"name":${JSON.stringify(HOSTILE)}}`,
    },
  ],
});

const outcome = (requirements: string[], state: TestOutcome['state'], extra: Partial<TestOutcome> = {}): TestOutcome => ({
  title: `${requirements.join(' ')} a test`,
  file: 'suites/control-plane/deployments.suite.ts',
  requirements,
  state,
  failures: [],
  checks: state === 'passed' ? Object.fromEntries(requirements.map((id) => [id, { ran: 1, held: 1 }])) : {},
  properties: [],
  durationMs: 5,
  ...extra,
});

export interface SampleOptions {
  seed?: number;
  /** Requirement ids listed in an expected-failures baseline. */
  expected?: string[];
  shard?: { index: number; count: number };
  runId?: string;
}

/** The sample report: CP-DEP-002 and AS-RUN-002 fail with hostile text, CP-SRC-001 is not applicable. */
export function sampleReport(options: SampleOptions = {}): ComplianceReport {
  const outcomes = [
    outcome(['CP-DEP-001'], 'passed'),
    outcome(['CP-DEP-002'], 'failed', { failures: [hostileFailure('CP-DEP-002')] }),
    outcome(['CP-DEP-003'], 'passed'),
    outcome(['CP-SRC-001'], 'skipped', { notApplicable: ['source:gitforge'] }),
    outcome(['AS-RUN-001'], 'passed'),
    outcome(['AS-RUN-002'], 'failed', { failures: [hostileFailure('AS-RUN-002')] }),
    outcome(['EU-UPL-001'], 'passed'),
  ];
  const baseline = options.expected ? { entries: new Map(options.expected.map((id) => [id, `known: ${HOSTILE}`])) } : undefined;
  const { requirements, errors } = buildResults({ catalogue: CATALOGUE, selected: REQUIREMENTS, outcomes, errors: [], ...(baseline ? { baseline } : {}) });
  const { verdict, reason, mustScore } = verdictOf(requirements, errors, universeOf(CATALOGUE));
  const profile = { ...defaultProfile(), urls: { 'control-plane': 'http://127.0.0.1:8100', 'agent-server': 'http://127.0.0.1:8123', 'experiment-upload': 'http://127.0.0.1:8200' } };
  return {
    schemaVersion: 1,
    harness: { name: 'agent-platform-conformance', version: '0.1.0' },
    catalogue: { version: CATALOGUE.version, specVersion: CATALOGUE.specVersion, hash: CATALOGUE.hash },
    runId: options.runId ?? 'apc-sample',
    seed: options.seed ?? 42,
    ...(options.shard ? { shard: options.shard } : {}),
    target: { urls: profile.urls, controlPlaneMode: 'hosted', reference: false, profile: redactedProfile({ ...profile, apiKey: 'k'.repeat(20) }) },
    startedAt: '2026-01-02T03:04:05.000Z',
    endedAt: '2026-01-02T03:05:47.000Z',
    verdict,
    verdictReason: reason,
    counts: countsOf(requirements),
    mustScore,
    requirements,
    errors,
  };
}
