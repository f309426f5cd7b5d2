// The composite GitHub Action (action.yml) run as a runner runs it: each `run:` step's script in
// bash with GitHub's flags, in a project whose node_modules/.bin has apc (so `npx apc` is this
// checkout's), with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and the step's env, its `${{ }}`
// expressions filled from the inputs and earlier steps' outputs; a step runs as its `if:` says
// after an earlier one failed. `uses:` steps (setup-node, upload-artifact) are GitHub's own: their
// inputs are checked, not run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../harness/root.ts';
import { scratchDir } from '../support/scratch.ts';

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string>;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}

interface Action {
  inputs: Record<string, { default?: string }>;
  runs: { using: string; steps: Step[] };
}

interface ActionRun {
  /** The steps that ran, by name (or `uses`), with their exit codes. */
  ran: [string, number][];
  uses: Step[];
  outputs: Record<string, Record<string, string>>;
  summary: string;
  project: string;
  /** What the steps printed, for a failing assertion's message. */
  log: string;
}

const ACTION = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

/** A project that depends on the harness: `npx apc` finds this checkout's bin, as after npm ci. */
function consumerProject(): string {
  const project = scratchDir('action-project');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(join(ROOT, 'bin', 'apc.mjs'), join(project, 'node_modules', '.bin', 'apc'));
  return project;
}

/** `${{ inputs.x }}` and `${{ steps.s.outputs.y }}`: the only expressions the action uses. */
function expand(text: string, inputs: Record<string, string>, outputs: ActionRun['outputs']): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_all, expression: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expression);
    if (input) return inputs[input[1]!] ?? '';
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    if (output) return outputs[output[1]!]?.[output[2]!] ?? '';
    throw new Error(`action.yml uses an expression this test does not evaluate: ${expression}`);
  });
}

/** Whether a step runs, as GitHub decides: `always()`, or no earlier failure and its condition. */
function runs(step: Step, failed: boolean, inputs: Record<string, string>): boolean {
  if (step.if === undefined) return !failed;
  if (step.if === 'always()') return true;
  const compare = /^inputs\.([\w-]+) == '([^']*)'$/.exec(step.if);
  if (!compare) throw new Error(`action.yml has a condition this test does not evaluate: ${step.if}`);
  return !failed && inputs[compare[1]!] === compare[2];
}

function runAction(given: Record<string, string>, project = consumerProject()): ActionRun {
  const inputs = { ...Object.fromEntries(Object.entries(ACTION.inputs).map(([k, v]) => [k, v.default ?? ''])), 'working-directory': project, ...given };
  const files = scratchDir('action-runner');
  const summaryFile = join(files, 'summary.md');
  writeFileSync(summaryFile, '');
  const result: ActionRun = { ran: [], uses: [], outputs: {}, summary: '', project, log: '' };
  let failed = false;
  ACTION.runs.steps.forEach((step, i) => {
    if (!runs(step, failed, inputs)) return;
    if (step.uses) {
      result.uses.push({ ...step, with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(String(v), inputs, result.outputs)])) });
      return;
    }
    expect(step.shell).toBe('bash');
    const outputFile = join(files, `output-${i}`);
    writeFileSync(outputFile, '');
    const script = join(files, `step-${i}.sh`);
    writeFileSync(script, step.run!);
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v), inputs, result.outputs)]));
    const cwd = resolve(project, expand(step['working-directory'] ?? '.', inputs, result.outputs));
    // GitHub runs `shell: bash` as `bash --noprofile --norc -eo pipefail {0}`.
    const child = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd,
      env: {
        ...process.env,
        ...env,
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_WORKSPACE: project,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        NO_COLOR: '1',
      },
      encoding: 'utf8',
      timeout: 240_000,
    });
    result.ran.push([step.name ?? `step ${i}`, child.status ?? -1]);
    result.log += `${child.stdout}${child.stderr}`;
    if (step.id)
      result.outputs[step.id] = Object.fromEntries(
        readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
      );
    if (child.status !== 0) failed = true;
  });
  result.summary = readFileSync(summaryFile, 'utf8');
  return result;
}

describe('action.yml, its steps run in a shell as a runner runs them', () => {
  test('a passing certification: report uploaded, compliance.md in the job summary, exit 0', () => {
    const run = runAction({ args: 'certify --requirements AS-THR-001', install: 'false' });
    expect(run.ran).toEqual([
      ['Run apc', 0],
      ['Job summary', 0],
      ["Exit with apc's code", 0],
    ]);
    expect(run.outputs.apc, run.log).toEqual({ 'exit-code': '0', verdict: 'passed' });
    const reports = join(run.project, 'apc-report');
    expect(existsSync(join(reports, 'compliance.json'))).toBe(true);
    expect(run.summary).toBe(readFileSync(join(reports, 'compliance.md'), 'utf8'));
    expect(run.summary).toContain('AS-THR-001');
    expect(run.uses.map((s) => s.uses)).toEqual(['actions/setup-node@v4', 'actions/upload-artifact@v4']);
    expect(run.uses[1]!.with).toMatchObject({ name: 'apc-report', path: `${run.project}/apc-report` });
  }, 240_000);

  test('a failing certification still writes the summary and uploads, then fails the job with exit 1', () => {
    const run = runAction({
      args: 'certify --requirements AS-GRAPH-001 --reference-fault as.graph-name-refused',
      reports: 'out/report',
      'artifact-name': 'nightly',
      install: 'false',
    });
    expect(run.outputs.apc).toEqual({ 'exit-code': '1', verdict: 'not-certified' });
    expect(run.ran.at(-1)).toEqual(["Exit with apc's code", 1]);
    expect(run.summary).toContain('AS-GRAPH-001');
    expect(run.summary).toBe(readFileSync(join(run.project, 'out', 'report', 'compliance.md'), 'utf8'));
    expect(run.uses[1]!.with).toMatchObject({ name: 'nightly', path: `${run.project}/out/report` });
  }, 240_000);

  test('a wildcard in args names report folders: the matrix of two shards goes to the summary', () => {
    const project = consumerProject();
    for (const i of [1, 2]) {
      const shard = runAction({ args: `certify --requirements AS-GRAPH-001,AS-THR-001 --shard ${i}/2 --seed 7 --reports shards/shard-${i}`, install: 'false' }, project);
      expect(shard.outputs.apc!['exit-code'], shard.log).toBe('0');
    }
    const run = runAction({ args: 'report matrix shards/shard-* --out matrix', reports: 'matrix', install: 'false' }, project);
    expect(run.outputs.apc, run.log).toEqual({ 'exit-code': '0', verdict: '' });
    expect(run.summary).toBe(readFileSync(join(project, 'matrix', 'matrix.md'), 'utf8'));
    expect(run.summary).toContain('|  | shard-1 | shard-2 |');
  }, 240_000);

  test('an unusable command exits 2, and the summary says that no report was written', () => {
    const run = runAction({ args: 'certify --no-such-flag', install: 'false' });
    expect(run.outputs.apc).toEqual({ 'exit-code': '2', verdict: '' });
    expect(run.summary).toContain('apc wrote no compliance.md or matrix.md in apc-report');
    expect(run.ran.at(-1)).toEqual(["Exit with apc's code", 2]);
  }, 60_000);
});
