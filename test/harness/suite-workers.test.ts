// Suite workers: a worker runs its files one after another, so where revisions may take time
// (any target but the reference the harness starts with quick builds) every file gets a worker,
// within --concurrency, and the control plane's revision waits overlap.
import { availableParallelism } from 'node:os';
import { expect, test } from 'vitest';
import { defaultProfile } from '../../harness/profile/profile.ts';
import type { RunPlan } from '../../harness/run/plan.ts';
import { suiteWorkers } from '../../harness/run/workers.ts';

function plan(options: { concurrency?: number; reference?: boolean; slowBuilds?: boolean; slowPosts?: boolean; interfaces?: RunPlan['suiteInterfaces'] }) {
  const behaviours = [...(options.slowBuilds ? (['slow-builds'] as const) : []), ...(options.slowPosts ? (['slow-posts'] as const) : [])];
  return {
    profile: { ...defaultProfile(), concurrency: options.concurrency ?? 16 },
    ...(options.reference ? { referenceChoice: { kind: 'process' as const, database: 'memory' as const } } : {}),
    request: behaviours.length > 0 ? { referencePlatformLike: { behaviours } } : {},
    suiteInterfaces: options.interfaces ?? ['control-plane'],
  } as Pick<RunPlan, 'profile' | 'referenceChoice' | 'request' | 'suiteInterfaces'>;
}

test('a target whose revisions may take time: as many workers as --concurrency allows', () => {
  expect(suiteWorkers(plan({ concurrency: 16 }))).toBe(16);
  expect(suiteWorkers(plan({ concurrency: 4 }))).toBe(4);
  expect(suiteWorkers(plan({ reference: true, slowBuilds: true }))).toBe(16);
});

test('the reference answering every POST late (slow-posts): those waits overlap across workers too, on every interface', () => {
  expect(suiteWorkers(plan({ reference: true, slowPosts: true, concurrency: 4 }))).toBe(4);
  expect(suiteWorkers(plan({ reference: true, slowPosts: true, concurrency: 4, interfaces: ['agent-server', 'experiment-upload'] }))).toBe(4);
});

test('a target measured slow as the run starts (a POST of 2 s) gets a worker per file within --concurrency, whatever its interfaces', () => {
  const interfaces = ['agent-server', 'experiment-upload'] as RunPlan['suiteInterfaces'];
  const slow = { ...plan({ concurrency: 4, interfaces }), latency: { 'agent-server': { readMs: 5, postMs: 2000 } } };
  expect(suiteWorkers(slow)).toBe(4);
  const quick = { ...plan({ concurrency: 4, interfaces }), latency: { 'agent-server': { readMs: 5, postMs: 20 } } };
  expect(suiteWorkers(quick)).toBe(Math.min(2, availableParallelism()));
});

test('the reference with quick builds, or no control plane: the work is CPU, two workers at most', () => {
  const cpu = Math.min(2, availableParallelism());
  expect(suiteWorkers(plan({ reference: true }))).toBe(cpu);
  expect(suiteWorkers(plan({ interfaces: ['agent-server', 'experiment-upload'] }))).toBe(cpu);
  expect(suiteWorkers(plan({ concurrency: 1 }))).toBe(1);
});

test("the caller's cap (apc selftest's one worker) holds either way", () => {
  expect(suiteWorkers(plan({}), 1)).toBe(1);
  expect(suiteWorkers(plan({ reference: true }), 1)).toBe(1);
});

test('under a budget as many workers as without: the tests that share deployments lease them from the run, not from a worker', () => {
  const budgeted = plan({ concurrency: 16 });
  budgeted.profile.budget = { deployments: 12, revisions: 40 };
  expect(suiteWorkers(budgeted)).toBe(16);
  const reference = plan({ reference: true });
  reference.profile.budget = { deployments: 12, revisions: 40 };
  expect(suiteWorkers(reference)).toBe(Math.min(2, availableParallelism()));
});

test('a run without the control plane keeps its workers under a budget', () => {
  const budgeted = plan({ interfaces: ['agent-server'] });
  budgeted.profile.budget = { deployments: 12, revisions: 40 };
  expect(suiteWorkers(budgeted)).toBe(Math.min(2, availableParallelism()));
});
