// Run state belongs to a run, not to a module: two certifications in one process (apc selftest's,
// whose kept suite workers serve many) neither mask nor hold each other's secrets, and
// harness/conformance/ keeps no module-level mutable state but the one registry of a worker's runs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Check } from '../../harness/conformance/check.ts';
import type { RunContext } from '../../harness/conformance/run-context.ts';
import { SuiteRun } from '../../harness/conformance/suite-run.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';
import { REDACTED } from '../../harness/redact.ts';
import { draftRun, planRun, type RunDraft, type RunPlan } from '../../harness/run/plan.ts';
import { certifyHere, keptSuiteWorkers, ROOT } from '../support/certify.ts';

const CONFORMANCE = join(ROOT, 'harness', 'conformance');

/**
 * Module-level state allowed in harness/conformance/, each with why. An entry whose file or name
 * is gone fails the test, so the list cannot go stale.
 */
const ALLOWED: { file: string; name: string; why: string }[] = [
  { file: 'run-of-file.ts', name: 'served', why: "a worker's runs by id, the one place a worker keeps them; each file reaches only its own run's entry" },
];

/** Names of module-level mutable state in a source: `let`/`var`, and a collection or object made at the top level that the file changes. */
function moduleState(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/^(?:export\s+)?(?:let|var)\s+([A-Za-z_$][\w$]*)/gm)) found.push(m[1]!);
  const made = /^(?:export\s+)?const\s+([A-Za-z_$][\w$]*)(?:\s*:[^=]+)?\s*=\s*(?:new\s+(?:Map|Set|WeakMap|WeakSet|Array)\b|\[|\{)/gm;
  for (const m of source.matchAll(made)) {
    const name = m[1]!;
    const changed = new RegExp(
      `\\b${name}(?:\\.(?:set|add|delete|clear|push|pop|shift|unshift|splice|sort|reverse)\\(|(?:\\[[^\\]]*\\]|\\.[\\w$]+)\\s*(?:[-+*/?|&]{0,3})=(?!=))`,
    );
    if (changed.test(source)) found.push(name);
  }
  return found;
}

describe('no module-level mutable state in harness/conformance/', () => {
  test('the check finds what it looks for', () => {
    expect(moduleState('let count = 0;\nexport let x: number;\n')).toEqual(['count', 'x']);
    expect(moduleState('const seen = new Set<string>();\nexport function f(v: string) { seen.add(v); }\n')).toEqual(['seen']);
    expect(moduleState('const byId: Record<string, number> = {};\nfunction f() { byId["a"] = 1; }\n')).toEqual(['byId']);
    expect(moduleState('const list = [];\nfunction f() { list.push(1); }\n')).toEqual(['list']);
    // A table that is only read is no state.
    expect(moduleState("const KINDS = new Set(['a', 'b']);\nexport const has = (k: string) => KINDS.has(k);\n")).toEqual([]);
    expect(moduleState('function f() { let local = 1; local += 1; return local; }\n')).toEqual([]);
  });

  test('each file holds none, but the allowed entries, which are still there', () => {
    const files = readdirSync(CONFORMANCE).filter((f) => /\.(ts|mjs|js)$/.test(f));
    const unexpected: string[] = [];
    for (const file of files) {
      for (const name of moduleState(readFileSync(join(CONFORMANCE, file), 'utf8'))) {
        if (!ALLOWED.some((a) => a.file === file && (a.name === name || a.name === '*'))) unexpected.push(`${file}: ${name}`);
      }
    }
    expect(unexpected, 'module-level mutable state: put it on the run (SuiteRun, suite-run.ts)').toEqual([]);
    for (const entry of ALLOWED) {
      const path = join(CONFORMANCE, entry.file);
      expect(existsSync(path), `${entry.file} is gone from conformance/: remove its entry from ALLOWED`).toBe(true);
      if (entry.name !== '*')
        expect(moduleState(readFileSync(path, 'utf8')), `${entry.file} no longer holds ${entry.name}: remove its entry`).toContain(entry.name);
    }
  });

  test('a certification reaches the process redactor from none of its rooms', () => {
    const rooms = ['conformance', 'run', 'suite-runner'].map((r) => join(ROOT, 'harness', r));
    const users = rooms.flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .filter((f) => /import\s*\{[^}]*\bredactor\b[^}]*\}\s*from\s*'\.\.\/redact\.ts'/.test(readFileSync(join(dir, f), 'utf8')))
        .map((f) => `${dir.slice(ROOT.length + 1)}/${f}`),
    );
    // Progress's default is the process redactor, for the one-shot commands (apc report); a run passes its own.
    expect(users).toEqual(['harness/run/progress.ts']);
  });
});

const context = (runId: string, apiKey: string): RunContext => ({ profile: { ...defaultProfile(), apiKey }, runId, reproFlags: '', workerConcurrency: 2 });

describe("a suite worker's runs", () => {
  test('each has its own redactor, limiter and names', () => {
    const a = new SuiteRun(context('apc-aaaaaa', 'key-of-run-a'));
    const b = new SuiteRun(context('apc-bbbbbb', 'key-of-run-b'));
    expect(a.redactor.text('key-of-run-a key-of-run-b')).toBe(`${REDACTED} key-of-run-b`);
    expect(b.redactor.text('key-of-run-a key-of-run-b')).toBe(`key-of-run-a ${REDACTED}`);
    // A secret a test of run A learns (an upload URL, a body's secret) stays run A's.
    a.redactor.addFromBody({ secrets: [{ name: 'S', value: 'secret-sent-by-a' }] });
    expect(a.redactor.text('secret-sent-by-a')).toBe(REDACTED);
    expect(b.redactor.text('secret-sent-by-a')).toBe('secret-sent-by-a');
    expect(a.limiter).not.toBe(b.limiter);
    expect([a.nextName(), a.nextName(), b.nextName()]).toEqual([1, 2, 1]);
  });

  test("a Check of a run records through its run's redactor and names with its run's prefix", () => {
    const run = new SuiteRun(context('apc-cccccc', 'key-of-run-c'));
    const first = new Check(run.context, 1, ['CP-X-001'], undefined, run);
    const second = new Check(run.context, 2, ['CP-X-001'], undefined, run);
    expect(first.redactor).toBe(run.redactor);
    expect(first.name('d')).not.toBe(second.name('d'));
    expect(first.name('d')).toMatch(/^apc-cccccc-d-/);
  });
});

describe('two certifications in one process', () => {
  const drafts: RunDraft[] = [];
  afterAll(async () => {
    for (const d of drafts) await d.reference?.close();
  });

  test('each run redacts its own keys, and only its own', { timeout: 60_000 }, async () => {
    const plans: RunPlan[] = [];
    for (const _ of [0, 1]) {
      const draft = draftRun(undefined);
      drafts.push(draft);
      const plan = await planRun({ settings: {}, interfaces: 'control-plane', sendNothing: true }, {}, draft, () => undefined);
      plans.push(plan as RunPlan);
    }
    const [a, b] = plans as [RunPlan, RunPlan];
    const [keyA, keyB] = [a.profile.apiKey!, b.profile.apiKey!];
    expect(keyA).not.toBe(keyB);
    expect(a.redactor.text(keyA)).toBe(REDACTED);
    expect(a.redactor.text(keyB)).toBe(keyB);
    expect(b.redactor.text(keyB)).toBe(REDACTED);
    expect(b.redactor.text(keyA)).toBe(keyA);
  });

  // Run A's profile hides a literal that run B's failure record shows (its curl line's path). One
  // redactor for the process, or for a kept worker, hid it in run B's report too.
  const suites = keptSuiteWorkers();
  const args = ['--interfaces', 'control-plane', '--requirements', 'CP-ERR-001', '--runs', '3', '--seed', '1'];
  test("a literal run A hides is not hidden in run B's report, though the same suite worker served both", { timeout: 240_000 }, async () => {
    const hidden = '/v2/deployments';
    const a = await certifyHere({ args, profile: { redact: [hidden] } }, suites);
    expect(a.code, a.stderr).toBe(0);
    const b = await certifyHere({ args: [...args, '--reference-fault', 'cp.not-found-plain-text'] }, suites);
    expect(b.status('CP-ERR-001'), b.stdout).toBe('failed');
    const curls = b.result('CP-ERR-001')!.failures.flatMap((f) => f.exchanges.map((e) => e.curl));
    expect(curls.length).toBeGreaterThan(0);
    expect(curls.some((c) => c.includes(hidden))).toBe(true);
    expect(curls.join('\n')).not.toContain(REDACTED);
  });
});
