// What a test is handed by the budget's room (harness/budget/needs.ts, over the leases of
// harness/budget/leases.ts) from the certifying process's broker: a second test on a key waits
// until the first ends and then finds what it made; a test that failed drops what it used, not
// what it only held; a record kept through failures (a deletion) stays; a key the test did not
// declare is a suite's mistake; a broker that does not answer leaves the test not judged, saying
// why. Without a budget each test makes its own, and nothing is shared.
import { expect, test } from 'vitest';
import { Check } from '../../harness/conformance/check.ts';
import { NotJudged } from '../../harness/conformance/failure.ts';
import { leaseKeys } from '../../harness/budget/leases.ts';
import { byLimit } from '../../harness/budget/needs.ts';
import type { RunContext } from '../../harness/conformance/run-context.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';
import { startPoolBroker } from '../../harness/budget/broker.ts';
import { brokeredRun } from '../support/brokered-run.ts';

const pool = brokeredRun('apc-test');

let tests = 0;
/** A test that leased `keys` and has started. */
async function started(keys: string[], context = pool.run): Promise<Check> {
  const id = `t${++tests}`;
  await leaseKeys(context, id, keys);
  const check = new Check(context, 1, ['CP-X-001']);
  check.needs.start(id);
  return check;
}

/** Hands `kind` to `check`, making `made` when the run has none for it. */
const handed = async <T>(check: Check, kind: string, made: T, options: { keepWhenFailed?: boolean } = {}) =>
  (await check.needs.one(kind, async () => made, options)).value;

const pendingAfter = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise.then(() => 'granted'), new Promise((r) => setTimeout(() => r('pending'), ms))]);

test('a second test on a key waits for the first to end, then finds what it made; keys it did not share are not waited for', async () => {
  const first = await started(['k', 'j']);
  expect(await first.needs.one('k', async (owner) => ({ id: 'd1', owner }))).toEqual({ value: { id: 'd1', owner: 'run' }, owner: 'run' });
  const id = `t${++tests}`;
  const second = leaseKeys(pool.run, id, ['k']);
  expect(await pendingAfter(second, 100)).toBe('pending');
  // Another key is free meanwhile.
  await (await started(['i'])).needs.end(false);
  await first.needs.end(false);
  await second;
  const check = new Check(pool.run, 1, ['CP-X-001']);
  check.needs.start(id);
  expect(await handed(check, 'k', { id: 'made again' })).toEqual({ id: 'd1', owner: 'run' });
  await check.needs.end(false);
});

test('a failed test drops the values it used, keeps those it only held, and keeps a record marked so', async () => {
  const maker = await started(['used', 'held', 'record']);
  await handed(maker, 'used', 'u');
  await handed(maker, 'held', 'h');
  await handed(maker, 'record', 'r', { keepWhenFailed: true });
  await maker.needs.end(false);

  const failing = await started(['used', 'held', 'record']);
  expect(await handed(failing, 'used', 'other')).toBe('u');
  // Each holder of a record says so (CP-DEL-001 and CP-DEL-005 both, through the delete suite's deleted()).
  expect(await handed(failing, 'record', 'other', { keepWhenFailed: true })).toBe('r');
  await failing.needs.end(true);

  const next = await started(['used', 'held', 'record']);
  expect(await handed(next, 'used', 'made again')).toBe('made again');
  expect(await handed(next, 'held', 'other')).toBe('h');
  expect(await handed(next, 'record', 'other')).toBe('r');
  // Ending twice gives nothing back twice.
  await next.needs.end(false);
  await next.needs.end(false);
});

test('a value no longer of use is made again; one not worth keeping is not handed on', async () => {
  const first = await started(['d']);
  await first.needs.one('d', async () => ({ ok: false }), { keep: (v) => v.ok });
  await first.needs.end(false);
  const second = await started(['d']);
  expect(await handed(second, 'd', { ok: true, n: 1 })).toEqual({ ok: true, n: 1 });
  await second.needs.end(false);
  const third = await started(['d']);
  expect((await third.needs.one('d', async () => ({ ok: true, n: 2 }), { usable: (v) => v.n === 2 })).value).toEqual({ ok: true, n: 2 });
  await third.needs.end(false);
});

test('a key the test did not declare is refused; a broker that does not answer leaves the test not judged, saying why', async () => {
  const check = await started(['a']);
  await expect(handed(check, 'b', 'x')).rejects.toThrow(/not in this test's declared cost/);
  await check.needs.end(false);
  const gone = await startPoolBroker();
  await gone.close();
  const id = `t${++tests}`;
  await leaseKeys({ ...pool.run, poolUrl: gone.url }, id, ['a']);
  const unjudged = new Check(pool.run, 1, ['CP-X-001']);
  expect(() => unjudged.needs.start(id)).toThrow(NotJudged);
});

test('without a budget each test makes its own, owned by the test, and nothing is handed over where only shared things would be', async () => {
  const free: RunContext = { ...pool.run, profile: defaultProfile(), runId: 'apc-free' };
  const check = new Check(free, 1, ['CP-X-001']);
  check.needs.start('t-free');
  let made = 0;
  const make = async (owner: string) => ({ n: ++made, owner });
  expect(await check.needs.one('k', make)).toEqual({ value: { n: 1, owner: 'test' }, owner: 'test' });
  expect(await check.needs.one('k', make)).toEqual({ value: { n: 2, owner: 'test' }, owner: 'test' });
  expect(await check.needs.ifShared(async () => 'shared')).toBeUndefined();
  const limited = await started(['k']);
  expect(await limited.needs.ifShared(async () => 'shared')).toBe('shared');
  await limited.needs.end(false);
});

test('byLimit chooses by whether the profile limits what the run creates', () => {
  expect(byLimit(defaultProfile(), { unlimited: 5, limited: 1 })).toBe(5);
  expect(byLimit({ budget: { deployments: 3 } }, { unlimited: 5, limited: 1 })).toBe(1);
  expect(byLimit({ budget: { revisions: 3 } }, { unlimited: 5, limited: 1 })).toBe(1);
});
