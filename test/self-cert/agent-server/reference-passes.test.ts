// The good reference passes every agent server and experiment upload rule: `apc certify` with
// no target URL starts it and certifies both interfaces.
import { expect, test } from 'vitest';
import { loadCatalogue } from '../../../harness/catalogue.ts';
import { certify } from '../../support/certify.ts';

test('the reference implementation is certified for the agent server and the experiment upload', async () => {
  const run = await certify({ args: ['--interfaces', 'agent-server,experiment-upload', '--seed', '1'] });
  expect(run.report, `certify wrote no report:\n${run.stderr}\n${run.stdout}`).toBeDefined();
  const excluded = new Set(loadCatalogue().exclusions.flatMap((e) => (e.id ? [e.id] : [])));
  const wrong = run
    .report!.requirements.filter((r) => (excluded.has(r.id) ? r.status !== 'skipped' : r.status !== 'passed'))
    .map((r) => `${r.id} ${r.status}: ${r.failures[0]?.message ?? r.reason ?? ''}`);
  expect(wrong).toEqual([]);
  expect(run.report!.requirements.some((r) => r.id.startsWith('AS-'))).toBe(true);
  expect(run.report!.requirements.some((r) => r.id.startsWith('EU-'))).toBe(true);
  expect(run.report!.verdict).toBe('certified');
  expect(run.code).toBe(0);
});
