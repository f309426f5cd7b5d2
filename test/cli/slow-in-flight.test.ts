// A target measured slow (every POST a second or more late) gets more requests in flight by
// default (harness/run/in-flight.ts): the run mostly waits on it. The choice is printed with its
// reason, and a setting the user gave (flag or variable) always wins.
import { expect, test } from 'vitest';
import { inFlightFor, SLOW_TARGET_CONCURRENCY } from '../../harness/run/in-flight.ts';
import { certifyHere } from '../support/certify.ts';

test('the choice: more in flight only for a target whose answers take a second or more, and never fewer than asked', () => {
  const slowPosts = { 'control-plane': { readMs: 30, postMs: 2000 }, 'agent-server': { readMs: 20, postMs: 40 } };
  expect(inFlightFor(slowPosts, 4)).toEqual({
    concurrency: SLOW_TARGET_CONCURRENCY,
    line: '  concurrency 8: the target answers POSTs in 2.0 s, so the run keeps more requests in flight while it waits (--concurrency sets it).',
  });
  expect(inFlightFor({ 'experiment-upload': { readMs: 1500, postMs: 900 } }, 4)?.line).toMatch(/answers reads in 1\.5 s/);
  expect(inFlightFor({ 'control-plane': { readMs: 30, postMs: 999 } }, 4)).toBeUndefined();
  expect(inFlightFor({}, 4)).toBeUndefined();
  expect(inFlightFor(slowPosts, SLOW_TARGET_CONCURRENCY)).toBeUndefined();
  expect(inFlightFor(slowPosts, 16)).toBeUndefined();
});

/** slow-posts holds every POST 2 s on the platform's clock: at time scale 0.6, 1.2 s. */
const SLOW = ['--plan', '--reference-platform-like', 'slow-posts', '--reference-time-scale', '0.6', '--requirements', 'EU-REQ-001'];

test('a slow target: the run says it keeps 8 in flight and plans with 8; --concurrency, APC_CONCURRENCY or the profile concurrency given wins', async () => {
  const [chosen, flag, variable, file] = await Promise.all([
    certifyHere({ args: SLOW }),
    certifyHere({ args: [...SLOW, '--concurrency', '4'] }),
    certifyHere({ args: SLOW, env: { APC_CONCURRENCY: '3' } }),
    certifyHere({ args: SLOW, profile: { concurrency: 5 } }),
  ]);
  expect(chosen.stdout).toMatch(/^ {2}concurrency 8: the target answers POSTs in 1\.\d s, so the run keeps more requests in flight/m);
  expect(chosen.stdout).toMatch(/expected wall time: .* at 8 in flight/);
  for (const [run, given] of [
    [flag, 4],
    [variable, 3],
    [file, 5],
  ] as const) {
    expect(run.stdout).not.toMatch(/concurrency 8:/);
    expect(run.stdout).toMatch(new RegExp(`expected wall time: .* at ${given} in flight`));
  }
}, 120_000);
