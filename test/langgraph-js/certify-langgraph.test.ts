// The open-source LangGraph JS agent server, certified on every run against the baseline of its
// known deviations (expected-failures.yaml). The test fails both ways: a known deviation that is
// no longer found is a stale baseline entry (verdict error), and any other failure or block is a
// regression (verdict not-certified), whether the server changed or the harness did.
import { writeFileSync } from 'node:fs';
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

  // The other side: were the server (or the harness) to stop showing a deviation, its entry goes
  // stale. AS-THR-001, which the server follows, stands in for such an entry.
  test('a baseline entry the server no longer fails is stale: verdict error, exit 2', async () => {
    const baseline = join(scratchDir('langgraph-baseline'), 'stale.yaml');
    writeFileSync(baseline, 'expected-failures:\n  - id: AS-DOCS-001\n    reason: no /docs\n  - id: AS-THR-001\n    reason: stands in for a fixed deviation\n');
    const run = await certifyHere({ args: ['--agent-server-url', server.url, '--requirements', 'AS-DOCS-001,AS-THR-001', '--expected-failures', baseline] });
    expect(run.report?.verdict, `${run.stdout}${run.stderr}`).toBe('error');
    expect(run.code).toBe(2);
    expect(run.report?.errors.join('\n')).toContain('AS-THR-001');
  }, 120_000);
});
