// A test's leases on the run's pool, as the suite workers take them (harness/conformance/pool.ts)
// from the certifying process's broker: a second test on a key waits until the first ends and
// then finds what it made; a test that failed drops what it used, not what it only held; a record
// kept through failures (CP-DEL-001's deletion) stays; a key the test did not declare is a suite's
// mistake; a pool that does not answer leaves the test not judged, saying why.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Check } from '../../harness/conformance/check.ts';
import { NotJudged } from '../../harness/conformance/failure.ts';
import { endLeases, leaseKeys, poolLease, takeLeases } from '../../harness/conformance/pool.ts';
import type { RunContext } from '../../harness/conformance/run-context.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';
import { startPoolBroker, type PoolBroker } from '../../harness/run/pool-broker.ts';

let broker: PoolBroker;
let run: RunContext;
beforeAll(async () => {
  broker = await startPoolBroker();
  run = { profile: { ...defaultProfile(), budget: { deployments: 12, revisions: 40 } }, runId: 'apc-test', reproFlags: '', workerConcurrency: 1, poolUrl: broker.url };
});
afterAll(() => broker.close());

let tests = 0;
/** A test that leased `keys` and has started. */
async function started(keys: string[], context = run): Promise<Check> {
  const id = `t${++tests}`;
  await leaseKeys(context, id, keys);
  const check = new Check(context, 1, ['CP-X-001']);
  takeLeases(check, id);
  return check;
}

const pendingAfter = <T>(promise: Promise<T>, ms: number) => Promise.race([promise.then(() => 'granted'), new Promise((r) => setTimeout(() => r('pending'), ms))]);

test('a second test on a key waits for the first to end, then finds what it made; keys it did not share are not waited for', async () => {
  const first = await started(['k', 'j']);
  poolLease<{ id: string }>(first, 'k').value = { id: 'd1' };
  const id = `t${++tests}`;
  const second = leaseKeys(run, id, ['k']);
  expect(await pendingAfter(second, 100)).toBe('pending');
  // Another key is free meanwhile.
  await endLeases(await started(['i']), false);
  await endLeases(first, false);
  await second;
  const check = new Check(run, 1, ['CP-X-001']);
  takeLeases(check, id);
  expect(poolLease(check, 'k').value).toEqual({ id: 'd1' });
  await endLeases(check, false);
});

test('a failed test drops the values it used, keeps those it only held, and keeps a record marked so', async () => {
  const maker = await started(['used', 'held', 'record']);
  poolLease(maker, 'used').value = 'u';
  poolLease(maker, 'held').value = 'h';
  const record = poolLease(maker, 'record');
  record.value = 'r';
  record.dropWhenFailed = false;
  await endLeases(maker, false);

  const failing = await started(['used', 'held', 'record']);
  poolLease(failing, 'used');
  // Each holder says so (the delete suite's deletedRecord does, for CP-DEL-001 and CP-DEL-005).
  poolLease(failing, 'record').dropWhenFailed = false;
  await endLeases(failing, true);

  const next = await started(['used', 'held', 'record']);
  expect(poolLease(next, 'used').value).toBeUndefined();
  expect(poolLease(next, 'held').value).toBe('h');
  expect(poolLease(next, 'record').value).toBe('r');
  // Ending twice gives nothing back twice.
  await endLeases(next, false);
  await endLeases(next, false);
});

test('a key the test did not declare is refused; a pool that does not answer leaves the test not judged, saying why', async () => {
  const check = await started(['a']);
  expect(() => poolLease(check, 'b')).toThrow(/not in this test's declared cost/);
  await endLeases(check, false);
  const gone = await startPoolBroker();
  await gone.close();
  const id = `t${++tests}`;
  await leaseKeys({ ...run, poolUrl: gone.url }, id, ['a']);
  const unjudged = new Check(run, 1, ['CP-X-001']);
  expect(() => takeLeases(unjudged, id)).toThrow(NotJudged);
});
