// A run that spreads the pooled deployments' tests over copies (harness/budget/spread.ts) leases
// what its plan counted: a control-plane certification of the reference refusing busy PATCHes, by
// URL within the budget `--plan` names for it (deployments=16,revisions=44), certifies, creates
// more pooled deployments than one per kind yet no more than its report's plan nor its budget.
import { expect, test } from 'vitest';
import { referenceProfileFile, startReferenceTarget } from '../../harness/reference/reference-target.ts';
import { certifyHere } from '../support/certify.ts';

const BUDGET = { deployments: 16, revisions: 44 };

test('within a budget with room, a busy target is certified on copies of the pooled deployments, within the plan and the budget', async () => {
  const target = await startReferenceTarget({ mode: 'hosted', phaseMs: 20, platformLike: { behaviours: ['busy-deployments'] } });
  try {
    const [own, other] = target.grants;
    const run = await certifyHere(
      {
        profile: referenceProfileFile(target),
        args: ['--interfaces', 'control-plane', '--seed', '1', '--budget', `deployments=${BUDGET.deployments},revisions=${BUDGET.revisions}`],
        env: { APC_API_KEY: own!.key, APC_OTHER_API_KEY: other!.key },
        timeoutMs: 400_000,
      },
      {},
    );
    expect(run.report?.verdict, run.stdout.slice(-3000)).toBe('certified');
    const created = run.report!.cost!.created['control-plane']!;
    const planned = run.report!.cost!.planned['control-plane']!.creates;
    // One pooled deployment per kind and the tests' own make 11 (the default budget's plan); the copies add to it.
    expect(created.deployments).toBeGreaterThan(11);
    expect(created.deployments).toBeLessThanOrEqual(Math.min(planned.deployments ?? 0, BUDGET.deployments));
    expect(created.revisions).toBeLessThanOrEqual(BUDGET.revisions);
  } finally {
    await target.close();
  }
}, 500_000);
