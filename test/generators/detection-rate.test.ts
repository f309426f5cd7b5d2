// How reliably the model-based sequences of the conformance suites find a state bug: over 100
// seeds, at the suites' own sequence sizes and the default --runs, a fault in set-latest, in
// update or in a revision trigger must be caught in at least 99, and a server that keeps the
// rules must pass all 100. In-memory servers stand in for the target, so 100 seeds take seconds.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { AS_SEQUENCES, assistantCommands, runAssistantCommands } from '../../generators/agent-server/assistant-commands.ts';
import { controlPlaneSequences, CP_SEQUENCES, newSequence } from '../../generators/control-plane/commands.ts';
import { defaultProfile } from '../../harness/profile/profile.ts';
import { memoryAssistants, type Defect } from './agent-server/memory-assistants.ts';
import { contexts } from './control-plane/contexts.ts';
import { FakeControlPlane, type FakeFault } from './control-plane/fake-api.ts';

const SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);
const RUNS = defaultProfile().runs;

/** Seeds (of 100) in which the property failed. */
async function caught(property: fc.IAsyncProperty<[unknown]>, numRuns: number): Promise<number> {
  let count = 0;
  for (const seed of SEEDS) if ((await fc.check(property, { seed, numRuns, endOnFailure: true })).failed) count += 1;
  return count;
}

const assistantProperty = (defect?: Defect) =>
  fc.asyncProperty(assistantCommands(AS_SEQUENCES.maxCommands), async (commands) => {
    await runAssistantCommands(memoryAssistants(defect), commands);
  }) as fc.IAsyncProperty<[unknown]>;

/** `waitsAllowed`: as on a target that refuses a PATCH while a revision is in progress (CP_SEQUENCES.refused); `waits` gets each sequence's revision waits. */
const controlPlaneProperty = (ctx: (typeof contexts)[number], fault?: FakeFault, waitsAllowed?: number, waits: number[] = []) =>
  fc.asyncProperty(controlPlaneSequences(ctx, CP_SEQUENCES.maxCommands, true, waitsAllowed), async ({ commands }) => {
    const api = new FakeControlPlane(ctx.mode, fault);
    await fc.asyncModelRun(() => newSequence(api), commands);
    waits.push(api.waits);
  }) as fc.IAsyncProperty<[unknown]>;

describe('assistant version sequences, 100 seeds at the default --runs', () => {
  test('a server that keeps the rules passes all 100', async () => {
    expect(await caught(assistantProperty(), AS_SEQUENCES.runs(RUNS))).toBe(0);
  });

  test.each<Defect>(['ignore-set-latest', 'merge-on-update'])('a server with the defect %s is caught in at least 99', async (defect) => {
    expect(await caught(assistantProperty(defect), AS_SEQUENCES.runs(RUNS))).toBeGreaterThanOrEqual(99);
  });
});

describe.each(contexts)('$mode control-plane sequences, 100 seeds at the default --runs', (ctx) => {
  test('a control plane that keeps the rules passes all 100', async () => {
    expect(await caught(controlPlaneProperty(ctx), CP_SEQUENCES.runs(RUNS))).toBe(0);
  });

  test('a PATCH with secrets that creates no revision is caught in at least 99', async () => {
    expect(await caught(controlPlaneProperty(ctx, 'secrets-no-revision'), CP_SEQUENCES.runs(RUNS))).toBeGreaterThanOrEqual(99);
  });
});

describe.each(contexts)('$mode control-plane sequences on a target that refuses a PATCH while a revision is in progress', (ctx) => {
  const { waits: allowed, runs } = CP_SEQUENCES.refused;
  test('no sequence waits for more revisions one after another than allowed; a control plane that keeps the rules passes all 100', async () => {
    const waits: number[] = [];
    expect(await caught(controlPlaneProperty(ctx, undefined, allowed, waits), runs(RUNS))).toBe(0);
    expect(Math.max(...waits)).toBe(allowed);
  });
  test.each<FakeFault>(['secrets-no-revision', 'combined-triggers-two-revisions'])('the fault %s is caught in at least as many seeds as by the unlimited sequences', async (fault) => {
    const unlimited = await caught(controlPlaneProperty(ctx, fault), CP_SEQUENCES.runs(RUNS));
    expect(await caught(controlPlaneProperty(ctx, fault, allowed), runs(RUNS))).toBeGreaterThanOrEqual(unlimited);
  });
});
