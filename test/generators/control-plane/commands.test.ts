// Model-based sequences: they pass against a control plane that follows sections 2 and 3, and
// find each rule a broken one breaks within as few sequences as the conformance suite runs.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { controlPlaneSequences, CP_SEQUENCES, newSequence } from '../../../generators/control-plane/commands.ts';
import { ModelMismatch } from '../../../generators/model-mismatch.ts';
import { evidenceProblems } from '../../../harness/conformance/evidence.ts';
import { describeValue } from '../../../harness/conformance/failure.ts';
import { contexts } from './contexts.ts';
import { FakeControlPlane, type FakeFault } from './fake-api.ts';

const run = (ctx: (typeof contexts)[number], fault?: FakeFault) =>
  fc.check(
    fc.asyncProperty(controlPlaneSequences(ctx, 8), async ({ commands }) => {
      await fc.asyncModelRun(() => newSequence(new FakeControlPlane(ctx.mode, fault)), commands);
    }),
    { numRuns: 25, seed: 42 },
  );

/** The one short sequence of a run within a budget (model-sequences.suite.ts), under seed `seed`. */
const budgeted = (ctx: (typeof contexts)[number], seed: number, fault?: FakeFault) =>
  fc.check(
    fc.asyncProperty(controlPlaneSequences(ctx, CP_SEQUENCES.limited.maxCommands, false), async ({ commands }) => {
      await fc.asyncModelRun(() => newSequence(new FakeControlPlane(ctx.mode, fault)), commands);
    }),
    { numRuns: CP_SEQUENCES.limited.runs, seed },
  );

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);

describe.each(contexts)('$mode sequences within a budget', (ctx) => {
  test('pass against a conforming control plane, whatever the seed', async () => {
    for (const seed of SEEDS) {
      const result = await budgeted(ctx, seed);
      expect(result.failed ? `seed ${seed}: ${String(result.errorInstance)}` : 'passed').toBe('passed');
    }
  });

  test('the one sequence finds a PATCH of several triggers that makes two revisions, whatever the seed', async () => {
    for (const seed of SEEDS) {
      const error = (await budgeted(ctx, seed, 'combined-triggers-two-revisions')).errorInstance;
      expect(error).toBeInstanceOf(ModelMismatch);
      expect((error as ModelMismatch).requirement).toBe('CP-SEQ-001');
    }
  });
});

describe.each(contexts)('$mode sequences', (ctx) => {
  test('pass against a conforming control plane', async () => {
    const result = await run(ctx);
    expect(result.failed ? String(result.errorInstance) : 'passed').toBe('passed');
  });

  test.each([
    ['secrets-no-revision', ['CP-REV-006', 'CP-REV-008', 'CP-REV-001']],
    ['revisions-oldest-first', ['CP-REVL-002']],
    ['delete-keeps', ['CP-DEL-002']],
    ['refused-patch-applied', ['CP-ERR-007']],
  ] as const)('find the fault %s', async (fault, rules) => {
    const result = await run(ctx, fault);
    expect(result.failed).toBe(true);
    const error = result.errorInstance;
    expect(error).toBeInstanceOf(ModelMismatch);
    expect(rules).toContain((error as ModelMismatch).requirement);
    // Its evidence names the fields compared (docs/reports.md, "Evidence"), never bare ids.
    const { expected, seen } = error as ModelMismatch;
    expect(evidenceProblems({ expected: describeValue(expected), seen: describeValue(seen) })).toEqual([]);
  });
});
