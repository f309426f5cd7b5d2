// Writes harness/run/request-counts.json: the requests each test sends, counted on certifications of
// the reference (hosted, then self-hosted for the tests only it runs), with the default settings,
// and the hosted run's wall time. The expected wall time a run prints (harness/run/expected-time.ts)
// multiplies these counts by the target's measured latency. Run `npx tsx scripts/request-counts.ts`
// on a quiet machine after suites change how many requests they send.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestTable } from '../harness/run/expected-time.ts';
import { REQUEST_TABLE } from '../harness/run/expected-time.ts';
import { executeRun } from '../harness/run/execute.ts';
import { draftRun, planRun } from '../harness/run/plan.ts';
import { ROOT } from '../harness/root.ts';
import type { TestOutcome } from '../harness/report/compliance.ts';

async function certify(mode: 'hosted' | 'self-hosted', requirements?: string[]): Promise<{ outcomes: TestOutcome[]; wallMs: number; runs: number }> {
  const reports = mkdtempSync(join(tmpdir(), `apc-request-counts-${mode}-`));
  const draft = draftRun(reports);
  const started = performance.now();
  try {
    const plan = await planRun({ settings: { seed: '1', controlPlaneMode: mode }, ...(requirements ? { requirements } : {}) }, {}, draft, () => {});
    if ('nothing' in plan) throw new Error(plan.nothing);
    const outcomes: TestOutcome[] = [];
    await executeRun(plan, { listener: { outcome: (o) => outcomes.push(o) } });
    return { outcomes, wallMs: performance.now() - started, runs: plan.profile.runs };
  } finally {
    await draft.reference?.close();
    rmSync(reports, { recursive: true, force: true });
  }
}

// A run of one test that sends a single request: what any run costs before its tests (the reference's and the workers' start).
const start = await certify('hosted', ['AS-DOCS-001']);
const hosted = await certify('hosted');
const selfHosted = await certify('self-hosted');
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
const table: RequestTable = {
  measured: `${new Date().toISOString().slice(0, 10)}, commit ${commit}, seed 1`,
  runs: hosted.runs,
  startMs: Math.round(start.wallMs),
  wallMs: Math.round(hosted.wallMs),
  tests: {},
};
for (const outcome of [...selfHosted.outcomes, ...hosted.outcomes]) {
  if (outcome.requests) table.tests[outcome.title] = { requirements: outcome.requirements, requests: outcome.requests };
}
writeFileSync(join(ROOT, REQUEST_TABLE), `${JSON.stringify(table, null, 1)}\n`);
console.log(
  `${REQUEST_TABLE}: ${Object.keys(table.tests).length} tests; the hosted run took ${(hosted.wallMs / 1000).toFixed(1)} s, one of a single test ${(start.wallMs / 1000).toFixed(1)} s`,
);
