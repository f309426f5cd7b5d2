// The reference behaving as the real hosted platform does, every behaviour at once, on a clock ten
// times faster (phases of 150 ms, deletions of 300 ms, throttling windows of 100 ms, a GET in 40
// answered 503, each with Retry-After: 0.1, 409 while busy, pages of 10, 120 deployments already
// there): a conforming target in the platform's environment, which the harness must certify. The
// run goes inside this process, with the suite workers it chooses (slow builds: a worker per suite
// file, as for a real platform).
import { expect, test } from 'vitest';
import { PLATFORM_BEHAVIOURS } from '../../reference-impl/platform-like/behaviours.ts';
import { certifyHere } from '../support/certify.ts';

test('apc certify --reference-platform-like (all behaviours, time scale 0.1) is CERTIFIED, having waited out throttling and 503s', async () => {
  const run = await certifyHere({ args: ['--reference-platform-like', PLATFORM_BEHAVIOURS.join(','), '--reference-time-scale', '0.1', '--runs', '5'], timeoutMs: 500_000 }, {});
  const output = `${run.stdout}\n${run.stderr}`;
  const notPassed = run.report?.requirements.filter((r) => r.status === 'failed' || r.status === 'blocked' || r.keptRefusing).map((r) => `${r.id} ${r.status}: ${r.failures[0]?.message ?? r.reason ?? ''}`);
  expect(notPassed, output).toEqual([]);
  expect(run.code, output).toBe(0);
  expect(run.report?.verdict, output).toBe('certified');
  const transient = Object.values(run.report?.transient ?? {});
  expect(transient.reduce((sum, t) => sum + (t?.throttled ?? 0), 0), output).toBeGreaterThan(0);
  expect(transient.reduce((sum, t) => sum + (t?.unavailable ?? 0), 0), output).toBeGreaterThan(0);
}, 520_000);
