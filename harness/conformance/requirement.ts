// `requirement(ids, body)`: declares one conformance test. The test is named for the ids it
// covers, is gated on the capabilities its requirements need, and on failure leaves a
// FailureRecord (redacted, with curl lines and a replay command) in the test's meta for the
// compliance reporter.
import { createHash } from 'node:crypto';
import { test } from 'vitest';
import { capabilitiesOf, loadCatalogue, missingCapabilities, notApplicableReason, type Requirement } from '../catalogue.ts';
import { toCurl, describeResponse } from '../http/curl.ts';
import type { Exchange } from '../http/exchange.ts';
import { redactor } from '../redact.ts';
import { TargetKeptRefusing, type TransientTally } from '../http/throttling.ts';
import { Check, type CheckTally, type PropertyTally } from './check.ts';
import { budgetText, createdBy, createdText, type Created } from './created.ts';
import { ConformanceFailure, describeValue, NotJudged, type FailureRecord, type SeenRecord } from './failure.ts';
import { failureAtEnd, sideFindings } from './findings.ts';
import type { RunContext } from './run-context.ts';
import { runOfCollectedFile, runOfFile } from './run-of-file.ts';
import { waitsOf, type RevisionWaits } from './waits.ts';
import { runCleanups } from './cleanups.ts';
import { endLeases, leaseBeforeEach, takeLeases } from './pool.ts';

export interface RequirementTestMeta {
  requirements?: string[];
  notApplicable?: string[];
  /** Why the test ended without judging its requirements, when it did. */
  notJudged?: string;
  /** Requirement id → checks of it that ran. */
  checks?: Record<string, CheckTally>;
  properties?: PropertyTally[];
  failures?: FailureRecord[];
  /** Failures of other rules it saw without stopping (a value outside its enum): findings.ts. */
  attributed?: FailureRecord[];
  /** What it saw against its own rules before it stopped at another rule's failure: not judged. */
  alsoSeen?: SeenRecord[];
  cleanupErrors?: string[];
  /** Per interface: answers 429 / 503 the test waited out, and for how long. */
  transient?: TransientTally;
  /** The test could not judge: a request stayed throttled or unavailable (the run's exit code says so). */
  keptRefusing?: boolean;
  /** What the test created on the target (counted from its exchanges). */
  created?: Created;
  /** Set when the test is declared: what it may create at most, for the plan (harness/run/cost.ts). */
  cost?: TestCost;
}

/**
 * What a test creates at most on a target that follows the spec (refusals create nothing), and
 * how many revision waits it makes one after another.
 */
export interface TestCost {
  creates: Created;
  /**
   * Revision waits one after another, per answer of the target to a revision-creating PATCH while
   * a revision is in progress (the profile's busyPatch). A target that accepts it (spec 3) gets
   * every PATCH at once, so only the test's own waits for a revision to end count (default: none).
   * One that refuses it gets a revision-creating PATCH only once the revision before has ended
   * (default: one wait per revision the test makes). waits.ts waitsOf reads it.
   */
  waits?: RevisionWaits;
  /**
   * Under a budget: what the test shares with others, by key, and what each costs: made once per
   * run by whichever test needs it first (a pooled deployment and its first revision, say).
   */
  shared?: Record<string, Created>;
}

declare module 'vitest' {
  interface TaskMeta extends RequirementTestMeta {}
}

export interface RequirementOptions {
  /** Title after the ids; defaults to the first requirement's statement. */
  title?: string;
  /** Test deadline: `deploy` for waits on revisions, `stream` for event streams, or ms. */
  timeout?: 'deploy' | 'stream' | 'stats' | number;
  /** What the test creates at most; a function of the profile when it depends on `--runs`. Absent: nothing. */
  cost?: TestCost | ((profile: RunContext['profile']) => TestCost);
  /** Where it shares (under a budget), the test reads what a test declared before it in its file left (CP-DEL-005): it starts once those have ended. */
  inOrder?: boolean;
}

let byId: Map<string, Requirement> | undefined;
/** The requirements by id: as the certifying process read them (the run context), else read here. */
function requirementsById(run: RunContext | undefined): Map<string, Requirement> {
  byId ??= run?.requirements ? new Map(run.requirements.map((r) => [r.id, r])) : loadCatalogue().byId;
  return byId;
}

function seedFor(run: RunContext, title: string): number {
  return createHash('sha256').update(`${run.profile.seed}:${title}`).digest().readInt32LE(0);
}

/** The test's deadline: its own time, and at least the deploy timeout for each revision wait in a row it declares for this target. */
function timeoutFor(run: RunContext, option: RequirementOptions['timeout'], cost: TestCost): number {
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
  const message = spec?.message ?? (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  const seedFlag = `--seed ${check.profile.seed}`;
  const record: FailureRecord = {
    requirements,
    message,
    repro: `apc certify ${check.run.reproFlags} ${seedFlag} --requirements ${requirements.join(',')}`.replace(/\s+/g, ' ').trim(),
    exchanges: exchangesOf(exchanges),
    ...(spec?.expected !== undefined ? { expected: describeValue(spec.expected)! } : {}),
    ...(spec?.seen !== undefined ? { seen: describeValue(spec.seen)! } : {}),
    ...(property ? { input: describeValue(property.input)!, seed: property.seed, ...(property.path ? { path: property.path } : {}) } : {}),
    ...(spec?.reliesOn?.length ? { reliesOn: spec.reliesOn } : {}),
  };
  return redactor.value(record);
}

export function requirement(ids: string | string[], body: (t: Check) => Promise<void>, options: RequirementOptions = {}): void {
  const list = Array.isArray(ids) ? ids : [ids];
  const run = (() => {
    try {
      return runOfCollectedFile();
    } catch {
      return undefined;
    }
  })();
  const known = requirementsById(run);
  const entries: Requirement[] = list.map((id) => {
    const entry = known.get(id);
    if (!entry) throw new Error(`Unknown requirement id ${id}: add it to requirements/ or fix the suite.`);
    return entry;
  });
  const title = `${list.join(' ')} ${options.title ?? entries[0]!.statement}`;
  // A test the profile cannot run creates nothing: its cost is zero in the plan.
  const applicable = run ? entries.every((e) => missingCapabilities(e, capabilitiesOf(run.profile)).length === 0) : false;
  const declared = typeof options.cost === 'function' ? (run ? options.cost(run.profile) : undefined) : options.cost;
  const cost: TestCost = applicable && declared ? declared : { creates: {} };
  // Tests that create deployments or share pooled ones run side by side within their file: each
  // may wait for revisions (minutes on a real platform), and those waits overlap instead of adding
  // up. Tests on one pooled deployment still run one at a time: each leases it (pool.ts).
  const concurrent = cost.shared ? !options.inOrder : (cost.creates.deployments ?? 0) > 0;
  leaseBeforeEach(runOfFile);
  test(title, { timeout: run ? timeoutFor(run, options.timeout, cost) : 60_000, meta: { cost }, concurrent }, async (ctx) => {
    const runCtx = runOfFile(ctx.task.file.filepath);
    ctx.task.meta.requirements = list;
    if (runCtx.overBudget?.includes(title)) {
      ctx.task.meta.notJudged = `budget: the profile's budget (${budgetText(runCtx.profile.budget)}) is spent on other tests; this one would create ${createdText(cost.creates)}`;
      // Left out, it creates nothing: the report's plan is that of the tests that ran.
      ctx.task.meta.cost = { creates: {} };
      ctx.skip(`skipped: ${ctx.task.meta.notJudged}`);
      return;
    }
    const caps = capabilitiesOf(runCtx.profile);
    const missing = [...new Set(entries.flatMap((e) => missingCapabilities(e, caps)))];
    if (missing.length > 0) {
      ctx.task.meta.notApplicable = missing;
      ctx.skip(`not applicable: ${notApplicableReason(missing)}`);
      return;
    }
    const timeoutMs = timeoutFor(runCtx, options.timeout, cost);
    // Waiting out a throttling target stops a little before the test's deadline, so the test ends skipped, not timed out.
    const check = new Check(runCtx, seedFor(runCtx, title), list, Date.now() + timeoutMs - Math.min(10_000, timeoutMs / 10));
    try {
      takeLeases(check, ctx.task.id);
      await body(check);
      const late = failureAtEnd(check);
      if (late) throw late;
    } catch (error) {
      const refused = error instanceof TargetKeptRefusing ? error : check.gaveUp;
      if (refused) {
        ctx.task.meta.notJudged = redactor.text(`not judged: ${refused.why}`);
        ctx.task.meta.keptRefusing = true;
        ctx.skip(`skipped: ${ctx.task.meta.notJudged}`);
        return;
      }
      if (error instanceof NotJudged) {
        ctx.task.meta.notJudged = error.why;
        if (error.capability) ctx.task.meta.notApplicable = [error.capability];
        ctx.skip(`${error.kind === 'not-applicable' ? 'not applicable' : 'skipped'}: ${error.why}`);
        return;
      }
      check.failed = true;
      const record = toRecord(check, list, error);
      const side = sideFindings(check, record);
      ctx.task.meta.failures = [record, ...(side.failures ?? [])];
      if (side.alsoSeen) ctx.task.meta.alsoSeen = side.alsoSeen;
      if (side.attributed) ctx.task.meta.attributed = side.attributed;
      const detail = [record.message, record.expected && `expected: ${record.expected}`, record.seen && `seen: ${record.seen}`]
        .filter(Boolean)
        .join('\n');
      throw new Error(detail);
    } finally {
      if (!ctx.task.meta.failures) {
        const side = sideFindings(check, undefined);
        if (side.attributed) ctx.task.meta.attributed = side.attributed;
      }
      ctx.task.meta.checks = Object.fromEntries(check.tallies);
      ctx.task.meta.properties = check.properties;
      ctx.task.meta.created = createdBy(check.recorder.exchanges, runCtx.profile);
      if (!runCtx.profile.keep) {
        const errors = await runCleanups(check.cleanups, runCtx.profile.concurrency);
        if (errors.length > 0) ctx.task.meta.cleanupErrors = redactor.value(errors);
      }
      await endLeases(check, check.failed || check.gaveUp !== undefined);
      if (Object.keys(check.recorder.transient).length > 0) ctx.task.meta.transient = check.recorder.transient;
    }
  });
}
