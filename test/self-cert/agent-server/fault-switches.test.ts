// Negative self-tests of the agent server suites with the reference's fault switches: each
// switch breaks one rule, and certifying the broken reference must fail that rule, for that
// reason. Switches that do not get in each other's way share one run; as.set-latest-ignored and
// as.no-data-line share runs with the proxies of broken-proxies.test.ts.
import { describe, expect, test } from 'vitest';
import { certifyByUrl, startTarget } from '../../support/reference-target.ts';
import { expectFailed } from '../../support/report-expectations.ts';

async function certifyWithFaults(faults: string[], requirements: string[], profile: Record<string, unknown> = {}) {
  const target = await startTarget(faults);
  try {
    const tracing = requirements.some((id) => id.startsWith('EU-')) ? { tracingUrl: target.server.urls.tracing } : {};
    return await certifyByUrl({ agentServerUrl: target.server.urls.agentServer, ...tracing, apiKey: target.apiKey, requirements, profile });
  } finally {
    await target.close();
  }
}

describe('agent server suites fail a reference with a fault switched on', () => {
  test('versions, search, graph names, stateless runs, content type, stream mode lists, event order', async () => {
    const run = await certifyWithFaults(
      [
        'as.version-not-1',
        'as.patch-merges',
        'as.search-ignores-metadata',
        'as.graph-name-refused',
        'as.stateless-run-persists',
        'as.wrong-content-type',
        'as.stream-mode-list-refused',
        'as.metadata-not-first',
      ],
      ['AS-ASST-002', 'AS-ASST-003', 'AS-SRCH-001', 'AS-SRCH-002', 'AS-GRAPH-001', 'AS-RUN-004', 'AS-SSE-001', 'AS-SSE-007', 'AS-SSE-004'],
    );
    expectFailed(run, {
      'AS-ASST-002': /Setting version 1 of assistant .* as latest failed/,
      'AS-ASST-003': /carried over: apc_v1_only|nothing merged/,
      'AS-SRCH-001': /did not list exactly the assistants/,
      'AS-SRCH-002': /limit \d+/,
      'AS-GRAPH-001': /did not stream/,
      'AS-RUN-004': /state persisted/,
      'AS-SSE-001': /Content-Type text\/event-stream/,
      'AS-SSE-007': /did not stream/,
      'AS-SSE-004': /The first event is updates, not metadata/,
    });
  });

  // Two experiment upload switches ride along: they touch nothing of the agent server, and
  // nothing of each other's rule.
  test('updates not keyed by node name; experiment statistics never filled; no grouping', async () => {
    const run = await certifyWithFaults(['as.updates-not-keyed-by-node', 'eu.stats-never-filled', 'eu.no-grouping'], ['AS-SSE-005', 'EU-STAT-002', 'EU-DS-004'], {
      timeouts: { requestMs: 10_000, streamMs: 10_000, statsMs: 4_000 },
    });
    expectFailed(run, {
      'AS-SSE-005': /not a node's state update/,
      'EU-STAT-002': /Timed out after 4000 ms waiting for the statistics/,
      'EU-DS-004': /landed in different datasets/,
    });
  });

  for (const fault of ['as.stream-never-ends', 'as.stream-stalls']) {
    test(`${fault}: a failure after the profile's 2 s stream timeout, not a hang`, async () => {
      const run = await certifyWithFaults([fault], ['AS-SSE-009'], { timeouts: { requestMs: 5_000, streamMs: 2_000, statsMs: 5_000 } });
      expectFailed(run, { 'AS-SSE-009': /still open after 2000 ms/ });
      // The reader gave up at the deadline: the stream was cut about 2 s after it opened.
      const seen = run.result('AS-SSE-009')!.failures[0]!.seen ?? '';
      const openMs = Number(/still open after (\d+) ms/.exec(seen)?.[1]);
      expect(openMs).toBeGreaterThanOrEqual(2_000);
      expect(openMs).toBeLessThan(4_000);
    });
  }
});
