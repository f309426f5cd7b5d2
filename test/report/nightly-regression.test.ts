// The README's nightly staging job, run on two nights against the reference implementation, by the
// job's own commands as the README prints them: staging has a known bug (a fault switch) listed in
// the baseline on both nights, and a second bug appears on the second night. The first night is
// green although the known bug blocks three more rules; the second night fails, and the diff against
// the first night names only the new failure.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { parse } from 'yaml';
import type { ComplianceReport } from '../../harness/report/compliance.ts';
import { ROOT } from '../support/certify.ts';

const KNOWN = 'cp.revisions-oldest-first';
// Fails CP-IMM-001 alone (reference-impl/control-plane/faults.md).
const NEW = 'cp.immutable-name-accepted';
// The rules the two faults touch, so that two nights take minutes, not the whole catalogue.
const SLICE = 'CP-REVL-*,CP-IMM-*';

/** The steps of the README's job, from its workflow sketch. */
function readmeJob(): { certify: string; diff: string } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const sketch = /```yaml\n(# \.github\/workflows\/staging-conformance\.yml[^]*?)```/.exec(readme)?.[1];
  expect(sketch, 'the README shows the nightly job').toBeDefined();
  const steps = (parse(sketch!) as { jobs: { conformance: { steps: { run?: string }[] } } }).jobs.conformance.steps;
  const run = (what: RegExp) => steps.map((s) => s.run?.trim() ?? '').find((r) => what.test(r));
  const certify = run(/^npx apc certify /);
  const diff = run(/npx apc report diff /);
  expect(certify, 'the job certifies').toBeDefined();
  expect(diff, 'the job diffs against last night').toBeDefined();
  return { certify: certify!, diff: diff! };
}

const work = mkdtempSync(join(tmpdir(), 'apc-nightly-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A step's command as the job runs it, in a shell in the night's checkout, `npx apc` being this project's apc. */
async function step(command: string, cwd: string): Promise<{ code: number | null; output: string }> {
  const line = command.replace(/\bnpx apc\b/g, `node ${join(ROOT, 'bin', 'apc.mjs')}`);
  const child = spawn('sh', ['-c', line], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { code, output };
}

/**
 * One night of the job in a fresh folder: last night's report downloaded as `last` (none the first
 * night), the certify step with the staging profile replaced by the reference with tonight's faults,
 * then the diff step. The cleanup step has nothing to do: the reference stops with the run. The
 * job's --max-rps spares a staging platform that others share; the reference started for the night
 * is the run's alone, so its rate is raised (at 5 a second the two nights waited a minute on it;
 * test/harness/limits.test.ts holds what --max-rps does).
 */
async function night(job: { certify: string; diff: string }, n: number, faults: string[]) {
  const dir = join(work, `night-${n}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'staging-baseline.yaml'), 'expected-failures:\n  - id: CP-REVL-002\n    reason: Revisions are listed oldest first; fix tracked in ISSUE-12.\n');
  const lastNight = join(work, `night-${n - 1}`, 'new');
  if (existsSync(lastNight)) cpSync(lastNight, join(dir, 'last'), { recursive: true });
  expect(job.certify).toContain('--profile staging.yaml');
  expect(job.certify).toMatch(/--max-rps \d+/);
  const target = [...faults.map((f) => `--reference-fault ${f}`), `--requirements '${SLICE}'`, '--quiet'].join(' ');
  const certify = await step(job.certify.replace('--profile staging.yaml', target).replace(/--max-rps \d+/, '--max-rps 200'), dir);
  const diff = await step(job.diff, dir);
  const report = JSON.parse(readFileSync(join(dir, 'new', 'compliance.json'), 'utf8')) as ComplianceReport;
  const diffFile = join(dir, 'diff.md');
  return { certify, diff, report, diffText: existsSync(diffFile) ? readFileSync(diffFile, 'utf8') : undefined };
}

test('night 1 with a known bug exits 0; night 2 with a new bug exits 1 and the diff names only it', async () => {
  const job = readmeJob();
  const first = await night(job, 1, [KNOWN]);
  expect(first.certify.code, first.certify.output).toBe(0);
  expect(first.report.verdict).toBe('no-regressions');
  const status = (report: ComplianceReport, id: string) => report.requirements.find((r) => r.id === id)?.status;
  expect(status(first.report, 'CP-REVL-002')).toBe('expected-failure');
  for (const id of ['CP-REVL-001', 'CP-REVL-003', 'CP-REVL-005']) expect(status(first.report, id), id).toBe('blocked-by-expected-failure');
  expect(first.certify.output).toContain('verdict: NO REGRESSIONS AGAINST THE BASELINE');
  // No report from last night: the diff step passes without a diff.
  expect(first.diff.code, first.diff.output).toBe(0);
  expect(first.diffText).toBeUndefined();

  const second = await night(job, 2, [KNOWN, NEW]);
  expect(second.certify.code, second.certify.output).toBe(1);
  expect(second.report.verdict).toBe('not-certified');
  expect(second.diff.code, second.diff.output).toBe(1);
  const diff = second.diffText!;
  expect(diff).toContain('## Newly failing (1)');
  expect(diff).toMatch(/\| CP-IMM-001 \| MUST \| passed \| failed \|/);
  // Nothing else changed: no other section, and no other requirement is named.
  expect(diff.match(/^## /gm)).toEqual(['## ']);
  expect([...new Set(diff.match(/\b(?:CP|AS|EU)-[A-Z-]+-\d{3}\b/g))]).toEqual(['CP-IMM-001']);
}, 900_000);
