// The plan's revision waits (harness/run/cost.ts): counted for the target's answer to a
// revision-creating PATCH while a revision is in progress (busyPatch), from what each test
// declares, with the defaults a test that declares nothing gets; the longest chain of a suite
// file counts (its tests overlap), and the files share the workers.
import { describe, expect, test } from 'vitest';
import { planLines, planOf } from '../../harness/run/cost.ts';
import type { PlannedTest } from '../../harness/run/planned-tests.ts';
import type { TestCost } from '../../harness/conformance/requirement.ts';
import { waitsOf } from '../../harness/conformance/waits.ts';

const byId = new Map([['CP-X-001', { interface: 'control-plane' as const }]]);
const planned = (file: string, cost: TestCost): PlannedTest => ({ title: `CP-X-001 ${file}`, file, requirements: ['CP-X-001'], cost });

describe('waitsOf', () => {
  test('a declared chain counts for its busyPatch answer', () => {
    const cost: TestCost = { creates: { deployments: 1, revisions: 4 }, waits: { accepted: 1, refused: 2 } };
    expect(waitsOf(cost, 'accepted')).toBe(1);
    expect(waitsOf(cost, 'refused')).toBe(2);
  });

  test('undeclared: none where PATCHes are accepted while busy, one per revision made where they are refused', () => {
    const cost: TestCost = { creates: { deployments: 1, revisions: 4 } };
    expect(waitsOf(cost, 'accepted')).toBe(0);
    expect(waitsOf(cost, 'refused')).toBe(4);
    expect(waitsOf({ creates: {} }, 'refused')).toBe(0);
  });
});

describe('planOf', () => {
  const tests = [
    planned('a.suite.ts', { creates: { deployments: 1, revisions: 3 }, waits: { accepted: 1, refused: 3 } }),
    planned('a.suite.ts', { creates: { deployments: 1, revisions: 2 } }),
    planned('b.suite.ts', { creates: { deployments: 1, revisions: 2 } }),
    planned('c.suite.ts', { creates: { deployments: 1, revisions: 1 }, waits: { accepted: 1, refused: 1 } }),
  ];

  test('the longest chain of a file counts; one worker waits the files one after another, more overlap them, the longest perhaps last', () => {
    // Refused: files a, b and c wait 3, 2 and 1 revisions in a row. On two workers b and c may go
    // first, one each, and a start after c: 1 + 3 is within the bound of 6 / 2 + 3 / 2.
    expect(planOf(tests, byId, 1000, 'refused', 1).waitsMs).toBe(6000);
    expect(planOf(tests, byId, 1000, 'refused', 2).waitsMs).toBe(4500);
    expect(planOf(tests, byId, 1000, 'refused', 4).waitsMs).toBe(3750);
    // Accepted: a and c wait one revision each, b none.
    expect(planOf(tests, byId, 1000, 'accepted', 1).waitsMs).toBe(2000);
    expect(planOf(tests, byId, 1000, 'accepted', 4).waitsMs).toBe(1250);
    const plan = planOf(tests, byId, 1000, 'refused', 4);
    expect(plan.busyPatch).toBe('refused');
    expect(plan.interfaces['control-plane']).toEqual({ creates: { deployments: 4, revisions: 8 }, waitsInARow: 3, tests: 4 });
  });

  test('the printed plan gives both answers, the profile’s first and named as its', () => {
    const text = planLines([planOf(tests, byId, 60_000, 'accepted', 4), planOf(tests, byId, 60_000, 'refused', 4)]).join('\n');
    expect(text).toContain('at most 1 (busyPatch accepted), 3 (busyPatch refused) one after another in a test');
    expect(text).toMatch(/the revision waits take about 1 min on a target that accepts .*, as the profile says \(busyPatch: accepted\); about 4 min on a target that refuses such a PATCH/);
  });
});
