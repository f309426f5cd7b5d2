// The fault matrix: every fault switch of the reference implementation, one at a time, certified on
// its interface. The requirements that fail (not blocked) must be exactly the ones its faults.md
// line names: a fault shows as the failure of the rule it breaks, never as a cascade of others.
// `as.stream-stalls` and `as.stream-never-ends` are left out: streams that do not end are a hostile
// target, whose run the stream circuit breaker cuts short on purpose (test/cli/hostile-streams.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { certify, ROOT } from '../support/certify.ts';

interface Line {
  fault: string;
  mode: 'hosted' | 'self-hosted';
  fails: string[];
}

const INTERFACES = { 'control-plane': 'control-plane', 'agent-server': 'agent-server', tracing: 'experiment-upload' } as const;

function linesOf(folder: keyof typeof INTERFACES): Line[] {
  const text = readFileSync(join(ROOT, 'reference-impl', folder, 'faults.md'), 'utf8');
  const section = text.slice(text.indexOf('## The requirements each fault fails'));
  return [...section.matchAll(/^\| `([a-z]+\.[a-z0-9-]+)` \| (hosted|self-hosted) \| ([A-Z0-9 -]+) \|$/gm)].map((m) => ({
    fault: m[1]!,
    mode: m[2] as Line['mode'],
    fails: m[3]!.trim().split(/\s+/),
  }));
}

describe.each(Object.keys(INTERFACES) as (keyof typeof INTERFACES)[])('%s faults', (folder) => {
  const lines = linesOf(folder);

  test('faults.md names the requirements of every listed switch', () => {
    expect(lines.length).toBeGreaterThan(5);
  });

  test.each(lines)('$fault fails exactly $fails', async ({ fault, mode, fails }) => {
    const run = await certify({
      args: ['--interfaces', INTERFACES[folder], '--control-plane-mode', mode, '--reference-fault', fault, '--seed', '1', '--runs', '5'],
      timeoutMs: 400_000,
    });
    expect(run.report, run.stderr).toBeDefined();
    const failed = run.report!.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
    const why = run.report!.requirements.filter((r) => r.status === 'failed' && !fails.includes(r.id)).map((r) => `${r.id}: ${r.failures[0]?.message}`);
    expect(failed.sort(), why.join('\n')).toEqual([...fails].sort());
    // Only a MUST decides the verdict: a fault that breaks MAY rules alone leaves the target certified.
    const breaksMust = run.report!.requirements.some((r) => fails.includes(r.id) && r.level === 'MUST');
    expect(run.report!.verdict).toBe(breaksMust ? 'not-certified' : 'certified');
  }, 420_000);
});
