// A property is a pass only when it ran the cases it planned: every case discarded, a time limit
// reached first, or a failure without a counterexample is "not verified". Its cases are counted
// for the report ("N of M runs").
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Check } from '../../harness/conformance/check.ts';
import { ConformanceFailure, WaitTimedOut } from '../../harness/conformance/failure.ts';
import { ModelMismatch } from '../../generators/model-mismatch.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';

function check(runs = 25, seeds = 1): Check {
  const profile = { ...defaultProfile(), runs, seeds };
  return new Check({ profile, runId: 'apc-test', reproFlags: '', workerConcurrency: 1 }, 7, ['CP-X-001']);
}

describe('Check.property', () => {
  test('a property whose every case is discarded fails as not verified, naming the discards', async () => {
    const t: Check = check();
    const run = t.property(fc.integer(), async () => undefined, { stillClassified: () => false });
    await expect(run).rejects.toBeInstanceOf(ConformanceFailure);
    await expect(run).rejects.toThrow(/^Not verified: too many generated cases were discarded/);
    expect(t.tallies.get('CP-X-001')).toEqual({ ran: 1, held: 0 });
  });

  test('a property stopped by its time limit before its last case fails as not verified', async () => {
    const t = check(50);
    const run = t.property(fc.integer(), () => new Promise((resolve) => setTimeout(resolve, 20)), { timeLimitMs: 60 });
    await expect(run).rejects.toThrow(/^Not verified: the property (reached its time limit|was interrupted)/);
    expect(t.properties[0]!.ran).toBeLessThan(50);
  });

  test('a property that ran its cases passes and reports them against the --runs asked', async () => {
    const t = check(25);
    await t.property(fc.integer(), async (n) => t.expect(Number.isInteger(n), { message: 'an integer' }), { numRuns: 5 });
    expect(t.properties).toEqual([{ ran: 5, planned: 5, asked: 25 }]);
    expect(t.tallies.get('CP-X-001')).toEqual({ ran: 5, held: 5 });
  });

  test('a ModelMismatch thrown by a case is the failure of the rule it names, with the shrunk case', async () => {
    const t = new Check({ profile: { ...defaultProfile(), runs: 25, seeds: 1 }, runId: 'apc-test', reproFlags: '', workerConcurrency: 1 }, 7, ['CP-X-001', 'CP-X-002']);
    const run = t.property(fc.integer({ min: 0, max: 100 }), async (n) => {
      if (n >= 50) throw new ModelMismatch('CP-X-002', `${n} disagrees with the model`, 'below 50', n);
    });
    const failure = await run.then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ConformanceFailure);
    expect((failure as ConformanceFailure).spec).toEqual({ requirement: 'CP-X-002', message: '50 disagrees with the model', expected: 'below 50', seen: 50 });
    expect(t.propertyFailure?.input).toBe(50);
    expect(t.tallies.get('CP-X-002')?.held).toBe(0);
    expect(t.tallies.has('CP-X-001')).toBe(false);
  });

  test('shrinking tries at most as many cases as the property had: each try may be a deployment on a real platform', async () => {
    const t: Check = check(10);
    let tries = 0;
    // A wide integer fails at once and would shrink towards 1000 by many halvings.
    const run = t.property(fc.integer({ min: 0, max: 2 ** 30 }), async (n) => {
      tries += 1;
      t.expect(n < 1000, { requirement: 'CP-X-001', message: `${n} is too big` });
    });
    await expect(run).rejects.toThrow(/is too big$/);
    // The cases up to the first failure, at most 10 shrink tries, and the replay of the case found.
    expect(tries).toBeLessThanOrEqual(10 + 10 + 1);
    expect(t.propertyFailure?.input).toBeGreaterThanOrEqual(1000);
  });

  test('a counterexample fails with the case that broke the rule', async () => {
    const t = check(25);
    const run = t.property(fc.integer({ min: 0, max: 100 }), async (n) => t.expect(n < 50, { requirement: 'CP-X-001', message: `${n} is too big` }));
    await expect(run).rejects.toThrow(/^50 is too big$/);
    expect(t.propertyFailure?.input).toBe(50);
  });
});

describe('Check.property after a wait passed the deploy timeout', () => {
  // A case that waited out the deploy timeout (a stuck revision) ends the property: further cases
  // and shrinking would each wait the whole timeout again.
  const timedOutAt = (t: Check, n: number, as: 'check' | 'step') =>
    t.timedOut({ requirement: as === 'check' ? 'CP-X-001' : 'CP-LIFE-001', message: `case ${n}: the revision did not end within the deploy timeout` }, as);

  test('one by one: no case runs after it, nothing is shrunk, and the case is reported as drawn', async () => {
    const t = check(25);
    const seen: number[] = [];
    const run = t.property(fc.integer({ min: 0, max: 100 }), async (n) => {
      seen.push(n);
      if (n >= 10) timedOutAt(t, n, 'check');
    });
    const failure = await run.then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(WaitTimedOut);
    // Every case before the first that waited out, and that one: not one more.
    expect(seen.filter((n) => n >= 10)).toHaveLength(1);
    expect(t.propertyFailure?.input).toBe(seen.at(-1));
    expect((failure as Error).message).toBe(`case ${seen.at(-1)}: the revision did not end within the deploy timeout`);
    expect(t.properties).toEqual([{ ran: seen.length, planned: 25, asked: 25 }]);
    expect(t.tallies.get('CP-X-001')).toEqual({ ran: 1, held: 0 });
  });

  test('side by side: the cases run once, none again; a step that waited out blocks, it judges nothing', async () => {
    const t = check(8);
    let calls = 0;
    const run = t.property(fc.integer({ min: 0, max: 100 }), async (n) => {
      calls += 1;
      // The cases wait side by side: each meets its own timeout.
      await new Promise((resolve) => setTimeout(resolve, 5));
      timedOutAt(t, n, 'step');
    }, { sideBySide: true });
    const failure = await run.then(() => undefined, (error: unknown) => error);
    expect((failure as ConformanceFailure).spec.requirement).toBe('CP-LIFE-001');
    expect(calls).toBe(8);
    expect(t.tallies.size).toBe(0);
  });

  test("side by side: another case's own failure is reported rather than the timeout", async () => {
    const t: Check = check(8);
    const run = t.property(fc.integer({ min: 0, max: 100 }), async (n) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (n % 2 === 0) timedOutAt(t, n, 'step');
      t.expect(false, { requirement: 'CP-X-001', message: `${n} broke the rule` });
    }, { sideBySide: true, numRuns: 8 });
    await expect(run).rejects.toThrow(/^\d+ broke the rule$/);
    expect((t.propertyFailure!.input as number) % 2).toBe(1);
    // Reported as drawn: no shrinking path.
    expect(t.propertyFailure!.path).toBeUndefined();
  });
});

describe('Check.property side by side, then one by one', () => {
  test('a case that failed side by side and held when run again (its first run changed the target) still fails the property, as drawn', async () => {
    const t: Check = check(8);
    // A target that accepts each body once (the failure) and refuses it the second time: a name already taken.
    const seen = new Set<number>();
    const run = t.property(fc.integer({ min: 0, max: 1000 }), async (n) => {
      const first = !seen.has(n);
      seen.add(n);
      t.expect(!first, { requirement: 'CP-X-001', message: `${n} was accepted` });
    }, { sideBySide: true, numRuns: 8 });
    await expect(run).rejects.toThrow(/^\d+ was accepted$/);
    expect(t.propertyFailure!.path).toBeUndefined();
    expect(seen.has(t.propertyFailure!.input as number)).toBe(true);
  });
});

describe('Check.property with --seeds', () => {
  test('each seed runs the property; the seeds that found a counterexample are recorded', async () => {
    const t = check(10, 20);
    // Found only when a generated value lands in a narrow range: some seeds find it, others do not.
    const run = t.property(fc.integer({ min: 0, max: 999 }), async (n) => t.expect(n % 97 !== 3, { message: `${n} found` }));
    const outcome = await run.then(() => 'held', (error: Error) => error.message);
    const seeds = t.properties[0]!.seeds!;
    expect(seeds.ran).toBe(20);
    expect(seeds.caught.length).toBeGreaterThan(0);
    expect(seeds.caught.length).toBeLessThan(20);
    expect(seeds.caught.every((i) => i >= 0 && i < 20)).toBe(true);
    // Any seed's counterexample fails the property, not only the run's own seed.
    expect(outcome).toMatch(/^\d+ found$/);
  });

  test("where the run's own seed was judged before, only the other seeds run, and they catch what they catch in a full run", async () => {
    const found = (t: Check, seen: number[]) => t.property(fc.integer({ min: 0, max: 999 }), async (n) => {
      seen.push(n);
      t.expect(n % 97 !== 3, { message: `${n} found` });
    });
    const full = check(10, 20);
    await found(full, []).catch(() => undefined);
    const ownFirst: number[] = [];
    await check(10, 1).property(fc.integer({ min: 0, max: 999 }), async (n) => void ownFirst.push(n));
    const profile = { ...defaultProfile(), runs: 10, seeds: 20 };
    const others = new Check({ profile, runId: 'apc-test', reproFlags: '', workerConcurrency: 1, ownSeedJudged: true }, 7, ['CP-X-001']);
    const seen: number[] = [];
    await found(others, seen).catch(() => undefined);
    // The own seed's cases (the first ten a one-seed run draws) are not drawn again.
    expect(seen.slice(0, ownFirst.length)).not.toEqual(ownFirst);
    expect(others.properties[0]!.seeds).toEqual({ ran: 20, caught: full.properties[0]!.seeds!.caught.filter((i) => i > 0) });
  });

  test('one seed (the default) records no seeds', async () => {
    const t = check(5);
    await t.property(fc.integer(), async () => undefined);
    expect(t.properties[0]!.seeds).toBeUndefined();
  });
});

describe('checks and steps', () => {
  test('a check counts for the requirement it names, or for every requirement of the test', () => {
    const t: Check = new Check({ profile: defaultProfile(), runId: 'apc-test', reproFlags: '', workerConcurrency: 1 }, 7, ['CP-A-001', 'CP-A-002']);
    t.expect(true, { message: 'named', requirement: 'CP-A-001' });
    t.expect(true, { message: 'unnamed' });
    expect(Object.fromEntries(t.tallies)).toEqual({ 'CP-A-001': { ran: 2, held: 2 }, 'CP-A-002': { ran: 1, held: 1 } });
  });

  test('a step counts for nothing when it holds, and fails the requirement it relies on when it does not', () => {
    const t: Check = check();
    t.need(true, { message: 'created', requirement: 'CP-CREATE-001' });
    expect(t.tallies.size).toBe(0);
    expect(() => t.need(false, { message: 'create answered 500', requirement: 'CP-CREATE-001' })).toThrow(ConformanceFailure);
    try {
      t.need(false, { message: 'create answered 500', requirement: 'CP-CREATE-001' });
    } catch (error) {
      expect((error as ConformanceFailure).spec.requirement).toBe('CP-CREATE-001');
    }
  });

  test('notApplicable and skip end a test without a verdict, with the reason', () => {
    const t: Check = check();
    expect(() => t.notApplicable('fixture:other-tenant', 'no second tenant')).toThrow(/no second tenant/);
    expect(() => t.skip('no experiment reads')).toThrow(/no experiment reads/);
    expect(t.tallies.size).toBe(0);
  });
});
