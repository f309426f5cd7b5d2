// docs/ci.md's workflows as written: each parses as YAML, each use of the action gives only inputs
// action.yml declares and an apc command that exists, every `npx apc` line of a `run:` names an
// apc command, and the sharded job sets the variables `--shard auto` reads on GitHub Actions.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../harness/root.ts';

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}
interface Workflow {
  jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>;
}

const DOC = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');
const WORKFLOWS = [...DOC.matchAll(/```yaml\n(# \.github\/workflows\/(\S+)\n[^]*?)```/g)].map((m) => ({ file: m[2]!, workflow: parse(m[1]!) as Workflow }));
const INPUTS = Object.keys((parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> }).inputs);
/** `apc <command> [<subcommand>]` as harness/cli/main.ts dispatches them. */
const COMMANDS = /^(certify|init|serve|cleanup|selftest|report (merge|allure|diff|matrix)|contracts (verify|matrix|publish))( |$)/;
const ACTION = /\/agent-platform-conformance@/;

describe('docs/ci.md', () => {
  test('shows the three workflows: a contract check, a nightly staging regression, a release certification', () => {
    expect(WORKFLOWS.map((w) => w.file)).toEqual(['contracts.yml', 'staging-nightly.yml', 'release-certification.yml']);
  });

  test.each(WORKFLOWS.map((w) => [w.file, w.workflow] as const))('%s: the action gets declared inputs and a real apc command', (_file, workflow) => {
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    const uses = steps.filter((s) => ACTION.test(s.uses ?? ''));
    expect(uses.length).toBeGreaterThan(0);
    for (const step of uses) {
      expect(Object.keys(step.with ?? {}).filter((k) => !INPUTS.includes(k))).toEqual([]);
      expect(step.with?.args).toMatch(COMMANDS);
    }
    for (const line of steps.flatMap((s) => (s.run ?? '').split('\n'))) {
      for (const call of line.matchAll(/npx apc (.*)/g)) expect(call[1]).toMatch(COMMANDS);
    }
  });

  test('the sharded release job sets APC_SHARD_INDEX/TOTAL from strategy.job-index/job-total and runs --shard auto', () => {
    const release = WORKFLOWS.find((w) => w.file === 'release-certification.yml')!.workflow;
    expect(release.jobs.certify!.env).toMatchObject({ APC_SHARD_INDEX: '${{ strategy.job-index }}', APC_SHARD_TOTAL: '${{ strategy.job-total }}' });
    expect(release.jobs.certify!.steps.find((s) => ACTION.test(s.uses ?? ''))?.with?.args).toContain('--shard auto');
    const merge = release.jobs.merge!.steps.map((s) => s.with?.args ?? '');
    expect(merge.some((a) => a.startsWith('report merge shards/shard-*'))).toBe(true);
    expect(merge.some((a) => a.startsWith('report matrix '))).toBe(true);
  });
});
