// The cost of a run: its plan, made before it sends anything: per interface, what the selected tests
// create at most (each test declares it, harness/conformance/requirement.ts) and how many
// revision waits come one after another, which with the revision time gives the wall time.
import { addCreated, budgetText, createdText, CREATED_KINDS, KIND_INTERFACE, type Created } from '../conformance/created.ts';
import { waitsOf } from '../conformance/waits.ts';
import type { RunContext } from '../conformance/run-context.ts';
import { budgeted, INTERFACES, type Budget, type BusyPatch, type InterfaceName } from '../profile/profile.ts';
import { BUSY_PATCH_ANSWERS } from '../../schemas/target-profile.ts';
import type { ComplianceReport, TestOutcome } from '../report/compliance.ts';
import { apcCommand } from '../apc-command.ts';
import { chainsOf, copiesCost, spreadPools, type Chain, type Spread } from '../budget/spread.ts';
import { budgetLeft, probePlanLines, type Probes } from './probe-budget.ts';
import { plannedTests, type PlannedTest } from './planned-tests.ts';

export interface InterfacePlan {
  /** At most this many of each kind, on a target that follows the spec. */
  creates: Created;
  /** Revision waits one after another in the longest test (waits of different tests overlap). */
  waitsInARow: number;
  tests: number;
}

export interface Plan {
  interfaces: Partial<Record<InterfaceName, InterfacePlan>>;
  revisionTimeMs: number;
  /** The target's answer to a revision-creating PATCH while a revision is in progress, which the waits are counted for. */
  busyPatch: BusyPatch;
  /**
   * The revision waits' part of the wall time: waits of one suite file overlap (its longest chain
   * counts), files share the run's workers (one file at a time each).
   */
  waitsMs: number;
  /**
   * Under a budget, when the tests that lease one pooled deployment (one at a time) wait longer in
   * a row than the files' waits take: that deployment, its tests and their waits. It is why a
   * budgeted plan may take longer than an unbudgeted one.
   */
  leased?: Chain;
  /** Under a budget, what spreading the tests over more pooled deployments of a kind added, or would need beyond the budget (`short`). */
  spread?: Pick<Spread, 'adds' | 'short'> & { enough?: Budget };
}

/** The reference implementation's revision: six phases of 10 ms (reference-impl/control-plane/revision-lifecycle.ts). */
export const REFERENCE_REVISION_MS = 60;

/** Which interface a test belongs to: that of its first requirement's id prefix. */
function interfaceOf(test: PlannedTest, byId: ReadonlyMap<string, { interface: InterfaceName }>): InterfaceName {
  return byId.get(test.requirements[0]!)!.interface;
}

/**
 * `workers`: the run's suite workers (harness/run/workers.ts), among which the files are shared;
 * `busyPatch`: the target's answer to a revision-creating PATCH while a revision is in progress.
 */
export function planOf(
  tests: PlannedTest[],
  byId: ReadonlyMap<string, { interface: InterfaceName }>,
  revisionTimeMs: number,
  busyPatch: BusyPatch,
  workers = 1,
  spread?: Spread,
): Plan {
  const waits = (test: PlannedTest) => waitsOf(test.cost, busyPatch);
  const interfaces: Plan['interfaces'] = {};
  const pooled = new Set<string>();
  for (const test of tests) {
    const plan = (interfaces[interfaceOf(test, byId)] ??= { creates: {}, waitsInARow: 0, tests: 0 });
    addCreated(plan.creates, test.cost.creates);
    for (const [key, created] of Object.entries(test.cost.shared ?? {})) if (!pooled.has(key) && pooled.add(key)) addCreated(plan.creates, created);
    plan.waitsInARow = Math.max(plan.waitsInARow, waits(test));
    plan.tests += 1;
  }
  const control = interfaces['control-plane'];
  if (spread && control) addCreated(control.creates, spread.adds);
  const shared = filesInARow(tests, waits, workers);
  // Under a budget, tests that share a pooled deployment hold it one at a time, whichever worker
  // runs them (harness/budget/leases.ts): their waits add up. The longest such chain.
  const leased = chainsOf(tests, (cost) => waitsOf(cost, busyPatch), spread?.copies).reduce<Plan['leased']>(
    (longest, next) => (next.waits > (longest?.waits ?? 0) ? next : longest),
    undefined,
  );
  const spreadFacts =
    spread && (spread.adds.deployments || spread.short) ? { spread: { adds: spread.adds, ...(spread.short ? { short: spread.short } : {}) } } : {};
  return {
    interfaces,
    revisionTimeMs,
    busyPatch,
    waitsMs: Math.max(shared, leased?.waits ?? 0) * revisionTimeMs,
    ...(leased && leased.waits > shared ? { leased } : {}),
    ...spreadFacts,
  };
}

/**
 * The files' revision waits in a row: those of one file overlap (its longest chain counts), and
 * each worker takes the next file when it is free, in an order the plan does not know: at worst
 * the longest chain starts last, once the others have filled the workers evenly (the bound of
 * list scheduling). Where PATCHes are refused while busy, a run of the reference waited 5.1
 * revisions for this bound's 5.25 (15 waits in files of at most 2, on 4 workers): the even share alone said 3.75.
 */
function filesInARow(tests: PlannedTest[], waits: (test: PlannedTest) => number, workers: number): number {
  const fileChains = new Map<string, number>();
  for (const test of tests) fileChains.set(test.file, Math.max(fileChains.get(test.file) ?? 0, waits(test)));
  const longest = Math.max(0, ...fileChains.values());
  const total = [...fileChains.values()].reduce((a, b) => a + b, 0);
  return total / workers + longest * (1 - 1 / workers);
}

/**
 * Under a budget, the copies of the pooled deployments the run leases (harness/budget/spread.ts):
 * out of the room the budget leaves once `tests` (those it keeps) are counted, enough that no
 * pooled deployment's chain passes the files' own waits in a row. The run (execute.ts) asks the
 * same question of the same tests, so it leases what the plan counted.
 */
export function spreadOf(
  tests: PlannedTest[],
  byId: ReadonlyMap<string, { interface: InterfaceName }>,
  budget: Budget,
  busyPatch: BusyPatch,
  workers: number,
): Spread {
  const spent: Created = {};
  for (const plan of Object.values(planOf(tests, byId, 0, busyPatch, workers).interfaces)) addCreated(spent, plan.creates);
  const limit = plannable(budget);
  const room = (kind: 'deployments' | 'revisions') => (limit[kind] === undefined ? {} : { [kind]: Math.max(0, limit[kind] - (spent[kind] ?? 0)) });
  const waits = (test: PlannedTest) => waitsOf(test.cost, busyPatch);
  return spreadPools(tests, (cost) => waitsOf(cost, busyPatch), filesInARow(tests, waits, workers), { ...room('deployments'), ...room('revisions') });
}

/**
 * What the plan may spend of a budget: all of it but one deployment and one revision (of a budget
 * of at least two), kept free for the creates and PATCHes a conforming target refuses. The run
 * holds them to the budget too (harness/budget/), so without that room a refusal probe late in the
 * run would find the budget spent and its test would go unjudged.
 */
export function plannable(budget: Budget): Budget {
  const free = (n: number | undefined) => (n === undefined || n < 2 ? n : n - 1);
  return {
    ...(budget.deployments !== undefined ? { deployments: free(budget.deployments) } : {}),
    ...(budget.revisions !== undefined ? { revisions: free(budget.revisions) } : {}),
  };
}

/**
 * The tests the budget leaves out. Tests that create nothing always run; the others are taken in
 * the order of what they buy (MUST requirements judged per deployment and revision spent, a
 * pooled deployment counted by the first test that uses it), as long as both limits hold (a run
 * gives it what its plan may spend: plannable).
 */
export function overBudget(tests: PlannedTest[], budget: Budget, levelOf: (id: string) => string | undefined): string[] {
  const pooled = new Set<string>();
  const costOf = (t: PlannedTest): Created => {
    const created: Created = { ...t.cost.creates };
    for (const [key, shared] of Object.entries(t.cost.shared ?? {})) if (!pooled.has(key)) addCreated(created, shared);
    return created;
  };
  const price = (t: PlannedTest) => (costOf(t).deployments ?? 0) + (costOf(t).revisions ?? 0);
  const worth = (t: PlannedTest) => (price(t) === 0 ? Infinity : t.requirements.filter((id) => levelOf(id) === 'MUST').length / price(t));
  const spent = { deployments: 0, revisions: 0 };
  const left: string[] = [];
  const waiting = tests.filter((t) => price(t) > 0);
  while (waiting.length > 0) {
    // The best buy now: a pool another test paid for makes the tests on it cheaper.
    waiting.sort((a, b) => worth(b) - worth(a));
    const test = waiting.shift()!;
    const cost = costOf(test);
    const d = spent.deployments + (cost.deployments ?? 0);
    const r = spent.revisions + (cost.revisions ?? 0);
    if (d <= (budget.deployments ?? Infinity) && r <= (budget.revisions ?? Infinity)) {
      Object.assign(spent, { deployments: d, revisions: r });
      for (const key of Object.keys(test.cost.shared ?? {})) pooled.add(key);
    } else left.push(test.title);
  }
  return left;
}

/** What a run's report records: the plan of the tests that ran beside what they created. */
export type RunCost = NonNullable<ComplianceReport['cost']>;

/** `copies`: the pooled deployments' copies the run assigned (its plan counted them). */
export function runCost(
  outcomes: TestOutcome[],
  byId: ReadonlyMap<string, { interface: InterfaceName }>,
  busyPatch: BusyPatch,
  copies?: Spread['copies'],
): RunCost {
  const tests = outcomes.map((o) => ({ title: o.title, file: o.file, requirements: o.requirements, cost: o.cost ?? { creates: {} } }));
  const planned = planOf(tests, byId, 0, busyPatch, 1, copies ? { copies, adds: copiesCost(tests, copies) } : undefined).interfaces;
  return { planned, created: createdPerInterface(outcomes) };
}

/** Two parts of one run (an interrupted run and its resumption): their plans and creations added up. */
export function addCost(a: RunCost | undefined, b: RunCost | undefined): RunCost {
  const sum: RunCost = { planned: {}, created: {} };
  for (const part of [a, b]) {
    for (const name of INTERFACES) {
      const planned = part?.planned[name];
      if (planned) {
        const into = (sum.planned[name] ??= { creates: {}, waitsInARow: 0, tests: 0 });
        addCreated(into.creates, planned.creates);
        into.waitsInARow = Math.max(into.waitsInARow, planned.waitsInARow);
        into.tests += planned.tests;
      }
      if (part?.created[name]) addCreated((sum.created[name] ??= {}), part.created[name]);
    }
  }
  return sum;
}

/** What the run's tests created, per interface. */
export function createdPerInterface(outcomes: TestOutcome[]): Partial<Record<InterfaceName, Created>> {
  return byInterface(outcomes.reduce((sum: Created, o) => addCreated(sum, o.created), {}));
}

/** `created` split by the interface whose requests create each kind. */
export function byInterface(created: Created): Partial<Record<InterfaceName, Created>> {
  const result: Partial<Record<InterfaceName, Created>> = {};
  for (const kind of CREATED_KINDS) if (created[kind]) addCreated((result[KIND_INTERFACE[kind]] ??= {}), { [kind]: created[kind] });
  return result;
}

function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.round(ms / 60_000);
  return minutes < 120 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** How the plan names a busyPatch answer. */
const BUSY_PATCH_TEXT: Record<BusyPatch, string> = {
  accepted: 'a target that accepts a revision-creating PATCH while a revision is in progress (spec 3)',
  refused: 'a target that refuses such a PATCH (each PATCH then waits for the revision before it)',
};

/**
 * The plan as `apc certify --plan` prints it: `plans` holds one plan per busyPatch answer, the
 * profile's first. Both wall times are shown, since a profile not written by `apc init` may not
 * know how its target answers, and the two differ several times over.
 */
export function planLines(plans: Plan[]): string[] {
  const [plan] = plans;
  const lines: string[] = [];
  const waitsText = (p: Plan, name: InterfaceName) => `${p.interfaces[name]?.waitsInARow ?? 0} (busyPatch ${p.busyPatch})`;
  for (const name of INTERFACES) {
    const p = plan!.interfaces[name];
    if (!p) continue;
    const kinds = CREATED_KINDS.filter((k) => KIND_INTERFACE[k] === name);
    lines.push(`  ${name.padEnd(18)} ${p.tests} test(s); at most ${kinds.map((k) => `${p.creates[k] ?? 0} ${k}`).join(', ')}`);
    if (plans.some((q) => (q.interfaces[name]?.waitsInARow ?? 0) > 0)) {
      lines.push(
        `  ${''.padEnd(18)} revision waits: those of one suite file overlap; at most ${plans.map((q) => waitsText(q, name)).join(', ')} one after another in a test`,
      );
    }
  }
  const [first, ...others] = plans.map(
    (p) => `about ${duration(p.waitsMs)} on ${BUSY_PATCH_TEXT[p.busyPatch]}${p === plan ? `, as the profile says (busyPatch: ${p.busyPatch})` : ''}`,
  );
  lines.push(`  wall time: at ${duration(plan!.revisionTimeMs)} per revision, the revision waits take ${first}${others.map((o) => `; ${o}`).join('')}.`);
  for (const p of plans) lines.push(...spreadLines(p));
  lines.push(
    `             Plus the time of the requests themselves (below, from the latency measured). \`${apcCommand()} init\` finds out the busyPatch answer.`,
  );
  return lines;
}

/** Under a budget: the pooled deployments added to shorten the chains of waits, and the chain that is still the plan's longest, with what would shorten it. */
function spreadLines(p: Plan): string[] {
  const lines: string[] = [];
  const indent = '             ';
  const added = p.spread?.adds.deployments ?? 0;
  if (added > 0) {
    lines.push(
      `${indent}With busyPatch ${p.busyPatch}, ${added} more pooled deployment(s) of the kinds many tests lease take a share of those tests each (${createdText(p.spread!.adds)}, within the budget), so their revision waits do not all come one after another.`,
    );
  }
  if (!p.leased) return lines;
  const { key, tests, waits } = p.leased;
  const short = p.spread?.short;
  const why = short
    ? `the budget has no room to spread them over more pooled deployments: ${short.deployments} more deployment(s) and ${short.revisions} more revision(s) would bring the longest chain to ${short.waits}${p.spread?.enough ? ` (--budget deployments=${p.spread.enough.deployments ?? 'none'},revisions=${p.spread.enough.revisions ?? 'none'}, as the tests it leaves out come back too)` : ''}`
    : 'a test alone makes that chain, or the budget has no room to spread them';
  lines.push(
    `${indent}With busyPatch ${p.busyPatch} the longest chain is a pooled deployment's: under the budget, ${tests} tests lease the pooled deployment "${key}" one at a time, and their ${waits} revision waits come one after another; ${why}; without a budget each has a deployment of its own (--budget none, at the cost of more deployments).`,
  );
  return lines;
}

/**
 * The smallest budget, one deployment and one revision at a time above `budget`, that keeps the
 * tests `budget` keeps and spreads the pooled deployments' tests within the goal (none within 20).
 * The tests a budget left out come back with a larger one and take their share, so it is searched.
 */
function budgetToSpread(
  all: PlannedTest[],
  byId: ReadonlyMap<string, { interface: InterfaceName }>,
  levelOf: (id: string) => string | undefined,
  budget: Budget,
  busyPatch: BusyPatch,
  workers: number,
): Budget | undefined {
  for (let more = 1; more <= 20; more++) {
    const larger = {
      ...budget,
      ...(budget.deployments !== undefined ? { deployments: budget.deployments + more } : {}),
      ...(budget.revisions !== undefined ? { revisions: budget.revisions + more } : {}),
    };
    const left = new Set(overBudget(all, plannable(larger), levelOf));
    if (
      !spreadOf(
        all.filter((t) => !left.has(t.title)),
        byId,
        larger,
        busyPatch,
        workers,
      ).short
    )
      return larger;
  }
  return undefined;
}

/** A real platform's revision is a build of about 14 minutes (README "Cost of a certification"). */
export const PLATFORM_REVISION_MS = 14 * 60_000;

/** `apc certify --plan`: collects the selection's tests, prints what they create at most, sends nothing (the latency samples aside, certify-run.ts). */
export async function printPlan(options: {
  context: RunContext;
  interfaces: InterfaceName[];
  ids: string[];
  byId: ReadonlyMap<string, { interface: InterfaceName; level: string }>;
  revisionTimeMs: number;
  /** The run's suite workers (harness/run/workers.ts). */
  workers: number;
  /** A run without a profile probes the target first: what that may create at most (the tests are planned within the rest), how the default budget made room for it. */
  probes?: Probes;
  write: (line: string) => void;
}): Promise<Plan> {
  const all = await plannedTests(options.context, options.interfaces, options.ids);
  const whole = budgeted(options.context.profile) ? options.context.profile.budget : undefined;
  const budget = whole && options.probes ? budgetLeft(whole, options.probes.budget) : whole;
  const left = budget ? new Set(overBudget(all, plannable(budget), (id) => options.byId.get(id)?.level)) : new Set<string>();
  const tests = all.filter((t) => !left.has(t.title));
  const busyPatch = options.context.profile.busyPatch;
  const levelOf = (id: string) => options.byId.get(id)?.level;
  const plans = [busyPatch, ...BUSY_PATCH_ANSWERS.filter((b) => b !== busyPatch)].map((b) => {
    const plan = planOf(
      tests,
      options.byId,
      options.revisionTimeMs,
      b,
      options.workers,
      budget ? spreadOf(tests, options.byId, budget, b, options.workers) : undefined,
    );
    if (budget && plan.spread?.short) plan.spread.enough = budgetToSpread(all, options.byId, levelOf, budget, b, options.workers);
    return plan;
  });
  options.write(`apc certify --plan · ${options.ids.length} requirement(s) selected · nothing that creates was sent to the target\n`);
  if (whole)
    options.write(`  budget ${budgetText(whole)}: ${left.size} of ${all.length} test(s) left out (skipped, saying "budget"); the plan below is of the rest\n`);
  if (whole && options.probes) for (const line of probePlanLines(whole, options.probes)) options.write(`  ${line}\n`);
  for (const line of planLines(plans)) options.write(`${line}\n`);
  return plans[0]!;
}
