// The deployment deleted for a test (suites/control-plane/delete.suite.ts, through the budget's
// room, harness/budget/needs.ts): under a budget CP-DEL-001 and CP-DEL-005 are handed one deletion,
// whichever of them runs first, and each is judged on it alone; CP-DEL-005 alone is judged too (it
// depends on no other test); without a budget each deletes a deployment of its own.
import { expect, test } from 'vitest';
import { certifyHere, keptSuiteWorkers } from '../support/certify.ts';

const suites = keptSuiteWorkers();
const BUDGET = ['--budget', 'deployments=12,revisions=40'];
const certifyDeletes = (requirements: string, ...args: string[]) =>
  certifyHere({ args: ['--interfaces', 'control-plane', '--requirements', requirements, '--seed', '3', ...args] }, suites);
const statusOf = (report: { requirements: { id: string; status: string }[] }, id: string) => report.requirements.find((r) => r.id === id)?.status;

test('under a budget the two deletion rules share one deletion; CP-DEL-005 alone is judged on its own', async () => {
  const both = (await certifyDeletes('CP-DEL-001,CP-DEL-002,CP-DEL-005', ...BUDGET)).report!;
  expect(both.cost!.created['control-plane']!.deployments).toBe(1);
  for (const id of ['CP-DEL-001', 'CP-DEL-002', 'CP-DEL-005']) expect(statusOf(both, id)).toBe('passed');
  const alone = (await certifyDeletes('CP-DEL-005', ...BUDGET)).report!;
  expect(alone.cost!.created['control-plane']!.deployments).toBe(1);
  expect(statusOf(alone, 'CP-DEL-005')).toBe('passed');
}, 180_000);

test("a deployment that stays after its 204 fails CP-DEL-002 and CP-DEL-005 on the one deletion; CP-DEL-001, judged in CP-DEL-002's test, is blocked by it, not failed", async () => {
  const report = (await certifyDeletes('CP-DEL-001,CP-DEL-002,CP-DEL-005', ...BUDGET, '--reference-fault', 'cp.delete-keeps')).report!;
  expect(statusOf(report, 'CP-DEL-001')).toBe('blocked');
  expect(statusOf(report, 'CP-DEL-002')).toBe('failed');
  expect(statusOf(report, 'CP-DEL-005')).toBe('failed');
  expect(report.cost!.created['control-plane']!.deployments).toBe(1);
}, 180_000);

test('without a budget each deletion rule deletes a deployment of its own', async () => {
  const report = (await certifyDeletes('CP-DEL-001,CP-DEL-002,CP-DEL-005', '--budget', 'none')).report!;
  expect(report.cost!.created['control-plane']!.deployments).toBe(2);
  for (const id of ['CP-DEL-001', 'CP-DEL-002', 'CP-DEL-005']) expect(statusOf(report, id)).toBe('passed');
}, 180_000);
