// A run context whose pool broker (harness/budget/broker.ts) is started for the calling file or
// describe block and closed after it: what the tests of leases and needs hand to the budget room.
import { afterAll, beforeAll } from 'vitest';
import { startPoolBroker, type PoolBroker } from '../../harness/budget/broker.ts';
import type { RunContext } from '../../harness/conformance/run-context.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';

/** `.run` is set before the block's tests start (a budget of 12 deployments and 40 revisions). */
export function brokeredRun(runId: string): { run: RunContext } {
  const held = {} as { run: RunContext };
  let broker: PoolBroker | undefined;
  beforeAll(async () => {
    broker = await startPoolBroker();
    held.run = {
      profile: { ...defaultProfile(), budget: { deployments: 12, revisions: 40 } },
      runId,
      reproFlags: '',
      workerConcurrency: 1,
      poolUrl: broker.url,
    };
  });
  afterAll(() => broker?.close());
  return held;
}
