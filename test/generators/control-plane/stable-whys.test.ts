// What an invalid body or PATCH breaks, in words (`why`), goes into the failure's message
// ("POST /v2/deployments with a body where <why> answered 201"). It names one of the rule's few
// fixed cases (a field, a wrong type), never a generated value (a path, a ref, a number, left out
// or null, the deployment's source): the seeds that hit one case read the same, and the nightly
// diff has little to show as "changed message" (issue 35). The failure's input holds the values.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { validSources } from '../../../generators/control-plane/context.ts';
import { expressibleRules, invalidCreate } from '../../../generators/control-plane/create-payloads.ts';
import { invalidPatch } from '../../../generators/control-plane/patches.ts';
import { contexts } from './contexts.ts';

/** The distinct whys of 200 samples drawn under many seeds, by the rule they break. */
function whysByRule(samples: { breaks: string; why: string }[]): Map<string, Set<string>> {
  const byRule = new Map<string, Set<string>>();
  for (const { breaks, why } of samples) byRule.set(breaks, (byRule.get(breaks) ?? new Set()).add(why));
  return byRule;
}

const sampled = <T>(arbitrary: fc.Arbitrary<T>): T[] => Array.from({ length: 20 }, (_, seed) => fc.sample(arbitrary, { numRuns: 10, seed })).flat();

describe.each(contexts)('$mode control plane', (ctx) => {
  test('an invalid create: a few fixed whys per rule, no generated value', () => {
    for (const rule of expressibleRules(ctx)) {
      const texts = whysByRule(sampled(invalidCreate(ctx, [rule]))).get(rule) ?? new Set();
      // CP-CREATE-008 has 8 cases (a wrong type per field); values in them gave scores of texts.
      expect(texts.size, `${rule}: ${[...texts].join(' | ')}`).toBeLessThanOrEqual(8);
    }
    // Rules of one case say one thing, whatever the seed: left out and null are one case.
    for (const rule of ['CP-GRAPH-001', 'CP-GRAPH-002', 'CP-TAR-001', 'CP-TAG-001', 'CP-SRC-007', 'CP-RES-001', 'CP-APPL-003']) {
      if (!expressibleRules(ctx, [rule]).length) continue;
      expect(whysByRule(sampled(invalidCreate(ctx, [rule]))).get(rule)?.size, rule).toBe(1);
    }
  });

  test.each(validSources(ctx))('an invalid PATCH of a %s deployment: a few fixed whys per rule, no generated value', (source) => {
    for (const buildOnPush of [true, undefined]) {
      const whys = whysByRule(sampled(invalidPatch(ctx, source, { buildOnPush })));
      // One why per case of the rule (CP-ERR-003 has 6, a wrong type per field): with generated
      // values in them, 200 samples gave scores of different texts.
      for (const [rule, texts] of whys) expect(texts.size, `${rule}: ${[...texts].join(' | ')}`).toBeLessThanOrEqual(6);
      for (const rule of ['CP-TAR-002', 'CP-TAG-003']) if (whys.has(rule)) expect(whys.get(rule)!.size, rule).toBe(1);
    }
  });
});
