// What a budget costs in time where the platform refuses a revision-creating PATCH while a revision
// builds (issue "Real platforms, second pass", item 3): `apc certify --plan --revision-time 14m` of a
// control-plane certification of such a target (the reference refusing busy PATCHes), within the
// default budget of a URL target, without one, and within the budget the plan names. The default
// budget's deployments all go to the tests, so its plan says it has no room to spread the tests of
// the pooled internal_container deployment and names the budget that has; within that budget the
// plan's revision waits are at most 1.25 times those of the unbudgeted plan.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { referenceProfileFile, startReferenceTarget, type ReferenceTarget } from '../../harness/reference/reference-target.ts';
import { REMOTE_BUDGET } from '../../harness/profile/profile.ts';
import { certifyHere } from '../support/certify.ts';

let target: ReferenceTarget;
beforeAll(async () => {
  target = await startReferenceTarget({ mode: 'hosted', platformLike: { behaviours: ['busy-deployments'] } });
});
afterAll(() => target.close());

/** The plan's output under `budget` (a --budget value). */
async function planWith(budget: string): Promise<string> {
  const [own, other] = target.grants;
  const run = await certifyHere(
    {
      profile: referenceProfileFile(target),
      args: ['--interfaces', 'control-plane', '--plan', '--revision-time', '14m', '--budget', budget],
      env: { APC_API_KEY: own!.key, APC_OTHER_API_KEY: other!.key },
      timeoutMs: 300_000,
    },
    {},
  );
  expect(run.code, run.stdout).toBe(0);
  return run.stdout;
}

/** The planned revision waits in minutes where PATCHes are refused while busy (the profile's answer). */
function refusedMinutes(stdout: string): number {
  const found = /about (?:(\d+) h )?(\d+) min on a target that refuses/.exec(stdout);
  if (!found) throw new Error(`no planned wait for a target that refuses in:\n${stdout}`);
  return Number(found[1] ?? 0) * 60 + Number(found[2]);
}

test('within the budget the plan names, a budgeted plan waits at most 1.25 times the unbudgeted one; the default budget says why not', async () => {
  const unbudgeted = refusedMinutes(await planWith('none'));
  const byDefault = await planWith(`deployments=${REMOTE_BUDGET.deployments},revisions=${REMOTE_BUDGET.revisions}`);
  const named = /no room to spread them over more pooled deployments: (\d+) more deployment\(s\).*?\(--budget (deployments=\d+,revisions=\d+),/.exec(byDefault);
  expect(named, byDefault).not.toBeNull();
  expect(refusedMinutes(byDefault)).toBeGreaterThan(1.25 * unbudgeted);
  const spread = await planWith(named![2]!);
  expect(spread).toMatch(/With busyPatch refused, \d+ more pooled deployment\(s\)/);
  expect(spread).not.toContain('no room to spread');
  expect(refusedMinutes(spread), spread).toBeLessThanOrEqual(1.25 * unbudgeted);
}, 600_000);
