// The open-source LangGraph JS agent server, certified on every run against the baseline of its
// known deviations (expected-failures.yaml). The test fails both ways: a known deviation that is
// no longer found is a stale baseline entry (verdict error), and any other failure or block is a
// regression (verdict not-certified), whether the server changed or the harness did.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { certifyHere } from '../support/certify.ts';
import { scratchDir } from '../support/scratch.ts';
import { startLangGraphServer, type LangGraphServer } from './langgraph-server.ts';

const BASELINE = join(import.meta.dirname, 'expected-failures.yaml');
const KNOWN_DEVIATIONS = ['AS-ASST-002', 'AS-ASST-004', 'AS-DOCS-001'];

describe('the LangGraph JS agent server against its baseline', () => {
  let server: LangGraphServer;
  beforeAll(async () => {
    server = await startLangGraphServer();
  }, 240_000);
  afterAll(() => server?.close());

  test('has no regressions: its known deviations, and nothing else, fail', async () => {
    const run = await certifyHere({
      args: ['--agent-server-url', server.url, '--interfaces', 'agent-server', '--expected-failures', BASELINE],
      reportDir: scratchDir('langgraph-report'),
      timeoutMs: 300_000,
    });
    const report = run.report!;
    expect(report.verdict, `${run.stdout}${run.stderr}`).toBe('no-regressions');
    expect(run.code).toBe(0);
    expect(report.target.urls).toEqual({ 'agent-server': server.url });
    expect(report.requirements.filter((r) => r.status === 'expected-failure').map((r) => r.id)).toEqual(KNOWN_DEVIATIONS);
    expect(report.requirements.filter((r) => ['failed', 'blocked', 'untested', 'blocked-by-expected-failure'].includes(r.status))).toEqual([]);
    // A run that judged little would also have nothing new: most of the catalogue was judged and held.
    expect(report.requirements.filter((r) => r.status === 'passed').length).toBeGreaterThan(25);
  }, 320_000);
});
