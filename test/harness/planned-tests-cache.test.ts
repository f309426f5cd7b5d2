// A budgeted run's planned tests are kept between runs (harness/run/planned-tests.ts): collected
// once for the same sources, profile and selection, again for another profile or selection, and
// the cache holds no key and no workspace id. The selection here names no real requirement, so
// these entries never stand for a real run's.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { defaultProfile, type TargetProfile } from '../../harness/profile/profile.ts';
import { cachedPlannedTests, PLAN_CACHE, type PlannedTest } from '../../harness/run/planned-tests.ts';

const IDS = [`CACHE-TEST-${process.pid}-${Date.now()}`];
const SECRET = `sk-cache-test-${process.pid}`;

function target(port: number, tenant: string, budget = { deployments: 12, revisions: 40 }): TargetProfile {
  return {
    ...defaultProfile(),
    urls: { 'control-plane': `http://127.0.0.1:${port}/api` },
    apiKey: `${SECRET}-${port}`,
    tenantId: tenant,
    otherTenant: { apiKey: `${SECRET}-other-${port}`, tenantId: `${tenant}-other` },
    budget,
  };
}

function counting(tests: PlannedTest[]) {
  const calls = { count: 0 };
  return { calls, collect: async () => (calls.count++, tests) };
}

const planned: PlannedTest[] = [
  { title: `${IDS[0]} a test`, file: 'suites/control-plane/x.suite.ts', requirements: IDS, cost: { creates: { deployments: 1, revisions: 1 } } },
];

test('a target started again (other ports, keys, workspace ids and seed) plans from the kept collection; another budget or selection collects again', async () => {
  const { calls, collect } = counting(planned);
  expect(await cachedPlannedTests(target(41001, 'tenant-a'), ['control-plane'], IDS, collect)).toEqual(planned);
  expect(await cachedPlannedTests(target(41002, 'tenant-b'), ['control-plane'], IDS, collect)).toEqual(planned);
  expect(calls.count).toBe(1);
  await cachedPlannedTests(target(41003, 'tenant-c', { deployments: 3, revisions: 8 }), ['control-plane'], IDS, collect);
  expect(calls.count).toBe(2);
  await cachedPlannedTests(target(41004, 'tenant-d'), ['control-plane'], [...IDS, `${IDS[0]}-2`], collect);
  expect(calls.count).toBe(3);
  // Another path on the same host is another target: it may offer other things.
  await cachedPlannedTests({ ...target(41005, 'tenant-e'), urls: { 'control-plane': 'http://127.0.0.1:41005/other' } }, ['control-plane'], IDS, collect);
  expect(calls.count).toBe(4);
});

test('the kept collections hold no key and no workspace id of the profile', async () => {
  await cachedPlannedTests(target(41010, 'tenant-secret-id'), ['control-plane'], IDS, counting(planned).collect);
  for (const name of readdirSync(PLAN_CACHE)) {
    const text = readFileSync(join(PLAN_CACHE, name), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('tenant-secret-id');
  }
});
