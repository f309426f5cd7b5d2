// One conformance test as it runs in a suite worker, from its start to its end: left out by the
// budget or for a capability the target lacks, else its body on a new Check; then what it leaves
// in its meta (checks, properties, what it created, a redacted failure record with curl lines and
// a replay command), its cleanups, and what it was handed given back (harness/budget/needs.ts).
import { createHash } from 'node:crypto';
import type { TestContext } from 'vitest';
import { capabilitiesOf, missingCapabilities, notApplicableReason, type Requirement } from '../catalogue.ts';
import { toCurl, describeResponse } from '../http/curl.ts';
import type { Exchange } from '../http/exchange.ts';
import { TargetKeptRefusing } from '../http/throttling.ts';
import { Check } from './check.ts';
import { budgetText, createdBy, createdText } from './created.ts';
import { ConformanceFailure, describeInput, describeValue, NotJudged, safeString, type FailureRecord } from './failure.ts';
import type { RunContext } from './run-context.ts';
import { runOfFile, suiteRunOf } from './run-of-file.ts';
import type { RequirementOptions, TestCost } from './test-meta.ts';
import { waitsOf } from './waits.ts';
import { runCleanups } from './cleanups.ts';
import { applyLearned } from './learned.ts';
import { requestsBy } from './request-count.ts';
import { SLOW_DEADLINE_FACTOR } from './slow-deadline.ts';
import { failureAtEnd, sideFindings } from './findings.ts';
import { reproCommand } from './repro-command.ts';

/** A test as its suite declared it. */
export interface DeclaredTest {
  ids: string[];
  entries: Requirement[];
  title: string;
  cost: TestCost;
  timeout: RequirementOptions['timeout'];
  body: (t: Check) => Promise<void>;
}

function seedFor(run: RunContext, title: string): number {
  return createHash('sha256').update(`${run.profile.seed}:${title}`).digest().readInt32LE(0);
}

/**
 * The test's deadline: its own time, and at least the deploy timeout for each revision wait in a row it declares for this target.
 * `serialMs`: its requests one after another at the target's latency (SuiteRun.serialRequestMs), 0 on a quick target.
 */
export function timeoutFor(run: RunContext, option: RequirementOptions['timeout'], cost: TestCost, serialMs = 0): number {
  return Math.max(ownTimeout(run, option, cost), Math.max(60_000, run.profile.timeouts.requestMs * 4) + SLOW_DEADLINE_FACTOR * serialMs);
}

/** The test's own deadline, for a target that answers at once. */
function ownTimeout(run: RunContext, option: RequirementOptions['timeout'], cost: TestCost): number {
  const t = run.profile.timeouts;
  const base = Math.max(60_000, t.requestMs * 4);
  const waits = waitsOf(cost, run.profile.busyPatch) * t.deployMs + base;
  if (typeof option === 'number') return Math.max(option, waits);
  if (option === 'deploy') return Math.max(t.deployMs + base, waits);
  if (option === 'stream') return Math.max(t.streamMs * 3 + base, waits);
  if (option === 'stats') return Math.max(t.statsMs + base, waits);
  // Property runs make many requests, each bounded by the request deadline.
  return Math.max(base + run.profile.runs * t.requestMs, waits);
}

function exchangesOf(list: Exchange[]) {
  return list.slice(-12).map((e) => ({ curl: toCurl(e), response: describeResponse(e) }));
}

function toRecord(check: Check, ids: string[], error: unknown): FailureRecord {
  const spec = error instanceof ConformanceFailure ? error.spec : undefined;
  const property = check.propertyFailure;
  const exchanges = property ? property.exchanges : check.recorder.exchanges;
  const requirements = spec?.requirement ? [spec.requirement] : ids;
  const message = spec?.message ?? (error instanceof Error ? `${error.name}: ${error.message}` : safeString(error));
  // A generated input holds secrets the target never received (a PATCH for another source, a step
  // after the failing one): they are known to the redactor only from the input itself.
  if (property) check.redactor.addFromBody(property.input);
  const record: FailureRecord = {
    requirements,
    message,
    repro: reproCommand(check, requirements),
    exchanges: exchangesOf(exchanges),
    ...(spec?.expected !== undefined ? { expected: describeValue(spec.expected)! } : {}),
    ...(spec?.seen !== undefined ? { seen: describeValue(spec.seen)! } : {}),
    ...(property ? { input: describeInput(property.input)!, seed: property.seed, ...(property.path ? { path: property.path } : {}) } : {}),
    ...(spec?.reliesOn?.length ? { reliesOn: spec.reliesOn } : {}),
  };
  return check.redactor.value(record);
}

export async function runTest(ctx: TestContext, test: DeclaredTest): Promise<void> {
  const run = runOfFile(ctx.task.file.filepath);
  // What earlier tests of the run learned of the target (a busy platform) holds for this one.
  applyLearned(run);
  ctx.task.meta.requirements = test.ids;
  if (leftOut(ctx, run, test)) return;
  const suiteRun = suiteRunOf(ctx.task.file.filepath);
  const timeoutMs = timeoutFor(run, test.timeout, test.cost, suiteRun.serialRequestMs(test.title));
  // Waiting out a throttling target stops a little before the test's deadline, so the test ends skipped, not timed out.
  const deadlineAt = Date.now() + timeoutMs - Math.min(10_000, timeoutMs / 10);
  const check = new Check(run, seedFor(run, test.title), test.ids, deadlineAt, suiteRun);
  try {
    check.needs.start(ctx.task.id);
    await test.body(check);
    ctx.task.meta.bodyEnded = true;
    const late = failureAtEnd(check);
    if (late) throw late;
  } catch (error) {
    endedBy(ctx, check, test.ids, error);
  } finally {
    await end(ctx, check, run);
  }
}

/** Skips a test the budget leaves out, or one whose requirements need a capability the target lacks. */
function leftOut(ctx: TestContext, run: RunContext, test: DeclaredTest): boolean {
  if (run.overBudget?.includes(test.title)) {
    const probes = run.probeSpent ? ` and on probing the target (${createdText(run.probeSpent)})` : '';
    ctx.task.meta.notJudged = `budget: the profile's budget (${budgetText(run.profile.budget)}) is spent on other tests${probes}; this one would create ${createdText(test.cost.creates)}`;
    // Left out, it creates nothing: the report's plan is that of the tests that ran.
    ctx.task.meta.cost = { creates: {} };
    ctx.skip(`skipped: ${ctx.task.meta.notJudged}`);
    return true;
  }
  const caps = capabilitiesOf(run.profile);
  const missing = [...new Set(test.entries.flatMap((e) => missingCapabilities(e, caps)))];
  if (missing.length === 0) return false;
  ctx.task.meta.notApplicable = missing;
  ctx.skip(`not applicable: ${notApplicableReason(missing)}`);
  return true;
}

/** How the test's body ended early: not judged (a target that kept refusing, a NotJudged), or a failure. */
function endedBy(ctx: TestContext, check: Check, ids: string[], error: unknown): void {
  const refused = error instanceof TargetKeptRefusing ? error : check.gaveUp;
  if (refused) {
    ctx.task.meta.notJudged = check.redactor.text(`not judged: ${refused.why}`);
    ctx.task.meta.keptRefusing = true;
    ctx.skip(`skipped: ${ctx.task.meta.notJudged}`);
    return;
  }
  if (error instanceof NotJudged) {
    // Its why may quote an answer (a deletion that was not seen to end).
    ctx.task.meta.notJudged = check.redactor.text(error.why);
    if (error.capability) ctx.task.meta.notApplicable = [error.capability];
    ctx.skip(`${error.kind === 'not-applicable' ? 'not applicable' : 'skipped'}: ${ctx.task.meta.notJudged}`);
    return;
  }
  check.failed = true;
  const record = toRecord(check, ids, error);
  const side = sideFindings(check, record);
  ctx.task.meta.failures = [record, ...(side.failures ?? [])];
  if (side.alsoSeen) ctx.task.meta.alsoSeen = side.alsoSeen;
  if (side.attributed) ctx.task.meta.attributed = side.attributed;
  const detail = [record.message, record.expected && `expected: ${record.expected}`, record.seen && `seen: ${record.seen}`].filter(Boolean).join('\n');
  throw new Error(detail);
}

/** What the test leaves in its meta, then its cleanups and what it was handed given back. */
async function end(ctx: TestContext, check: Check, run: RunContext): Promise<void> {
  if (!ctx.task.meta.failures) {
    // A value outside its enum fails its rule wherever it is seen, in a test that passed too.
    const side = sideFindings(check, undefined);
    if (side.attributed) ctx.task.meta.attributed = side.attributed;
  }
  ctx.task.meta.checks = Object.fromEntries(check.tallies);
  ctx.task.meta.properties = check.properties;
  ctx.task.meta.created = createdBy(check.recorder.exchanges, run.profile);
  if (!run.profile.keep) {
    const errors = await runCleanups(check.cleanups, run.profile.concurrency);
    if (errors.length > 0) ctx.task.meta.cleanupErrors = check.redactor.value(errors);
  }
  await check.needs.end(check.failed || check.gaveUp !== undefined);
  ctx.task.meta.requests = requestsBy(check.recorder.exchanges);
  if (Object.keys(check.recorder.transient).length > 0) ctx.task.meta.transient = check.recorder.transient;
}
