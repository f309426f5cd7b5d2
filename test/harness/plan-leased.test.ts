// Why a budgeted plan may take longer than an unbudgeted one (issue "Real platforms, second pass",
// item 3): tests that lease one pooled deployment hold it one at a time, so their revision waits
// come one after another. The plan names that deployment, its tests and their waits.
import { expect, test } from 'vitest';
import { planLines, planOf } from '../../harness/run/cost.ts';
import type { PlannedTest } from '../../harness/run/planned-tests.ts';

const byId = new Map([['CP-REV-001', { interface: 'control-plane' as const }]]);
const pooled = (title: string, file: string): PlannedTest => ({
  title,
  file,
  requirements: ['CP-REV-001'],
  cost: { creates: {}, shared: { 'deployment:gitforge': { deployments: 1 } }, waits: { accepted: 1, refused: 2 } },
});
const own = (title: string, file: string): PlannedTest => ({
  title,
  file,
  requirements: ['CP-REV-001'],
  cost: { creates: { deployments: 1 }, waits: { accepted: 1, refused: 2 } },
});

test('under a budget, the waits of the tests on one pooled deployment add up, and the plan says so and why', () => {
  const files = ['a', 'b', 'c', 'd'];
  const budgeted = planOf(
    files.map((f) => pooled(`CP-REV-001 ${f}`, f)),
    byId,
    60_000,
    'refused',
    4,
  );
  expect(budgeted.leased).toEqual({ key: 'deployment:gitforge', tests: 4, waits: 8 });
  expect(budgeted.waitsMs).toBe(8 * 60_000);
  const lines = planLines([budgeted]).join('\n');
  expect(lines).toContain(
    'under the budget, 4 tests lease the pooled deployment "deployment:gitforge" one at a time, and their 8 revision waits come one after another',
  );
  // Each test with a deployment of its own: the four files wait side by side (at worst the list-scheduling bound, 8 / 4 + 2 × 3/4).
  const unbudgeted = planOf(
    files.map((f) => own(`CP-REV-001 ${f}`, f)),
    byId,
    60_000,
    'refused',
    4,
  );
  expect(unbudgeted.leased).toBeUndefined();
  expect(unbudgeted.waitsMs).toBe(3.5 * 60_000);
  expect(planLines([unbudgeted]).join('\n')).not.toContain('pooled deployment');
});
