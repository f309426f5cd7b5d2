// Create bodies: valid ones are accepted by the schema and classified valid; invalid ones are
// classified invalid with the rule they were made to break.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { loadCatalogue } from '../../../harness/catalogue.ts';
import { validate } from '../../../schemas/index.ts';
import { classifyCreate } from '../../../generators/control-plane/classify.ts';
import type { GeneratorContext } from '../../../generators/control-plane/context.ts';
import { baseCreate, expressibleRules, INVALID_CREATES, invalidCreate, validCreate, validCreateFor } from '../../../generators/control-plane/create-payloads.ts';
import { contexts } from './contexts.ts';

describe.each(contexts)('$mode control plane', (ctx: GeneratorContext) => {
  test('valid bodies pass the schema and are classified valid', () => {
    fc.assert(
      fc.property(validCreate(ctx), (body) => {
        const schema = validate('DeploymentCreateRequest', body);
        expect(schema.ok ? [] : schema.issues).toEqual([]);
        expect(classifyCreate(body, ctx.mode)).toEqual({ valid: true, breaks: [], either: [] });
        expect(body.name.startsWith(`${ctx.namePrefix}-`)).toBe(true);
        expect(body.name).toMatch(/^[a-z0-9-]+$/);
      }),
      { numRuns: 200 },
    );
  });

  test.each(['gitforge', 'external_container', 'internal_container', 'internal_source'] as const)('the base body of %s is valid when the mode allows it', (source) => {
    const verdict = classifyCreate(baseCreate(ctx, source, `${ctx.namePrefix}-base`), ctx.mode);
    const allowed = ctx.mode === 'hosted' ? source !== 'external_container' : source !== 'gitforge';
    expect(verdict.valid).toBe(allowed);
  });

  test('every invalid body breaks the rule it names', () => {
    fc.assert(
      fc.property(invalidCreate(ctx), ({ payload, breaks, why }) => {
        const verdict = classifyCreate(payload, ctx.mode);
        expect(verdict.valid, why).toBe(false);
        expect(verdict.breaks, why).toContain(breaks);
      }),
      { numRuns: 300 },
    );
  });

  test('valid bodies cover every source the mode allows', () => {
    const seen = new Set(fc.sample(validCreate(ctx), 200).map((b) => b.source));
    expect([...seen].sort()).toEqual(ctx.sources.filter((s) => (ctx.mode === 'hosted' ? s !== 'external_container' : s !== 'gitforge')).sort());
  });
});

// Shrinking keeps a counterexample only while the property fails: here, while the body is still
// invalid for its rule. Each rule once, on the first context that can express it.
const firstExpressing = Object.keys(INVALID_CREATES).map((rule) => [rule, contexts.find((ctx) => expressibleRules(ctx, [rule]).length > 0)!] as const);

test.each(firstExpressing)('%s bodies stay invalid for their rule while shrinking', (rule, ctx) => {
  const result = fc.check(
    fc.property(invalidCreate(ctx, [rule]), ({ payload }) => !classifyCreate(payload, ctx.mode).breaks.includes(rule)),
    { numRuns: 20 },
  );
  expect(result.failed).toBe(true);
  const [shrunk] = result.counterexample!;
  expect(classifyCreate(shrunk.payload, ctx.mode).breaks).toContain(rule);
});

test('every rule an invalid body breaks is expressible on some target and exists in the catalogue', () => {
  const catalogue = loadCatalogue();
  const expressible = new Set(contexts.flatMap((ctx) => expressibleRules(ctx)));
  for (const rule of Object.keys(INVALID_CREATES)) {
    expect(catalogue.byId.has(rule), rule).toBe(true);
    expect(expressible.has(rule), rule).toBe(true);
  }
});

test('a tag repo_ref is valid with build_on_push false and invalid with true', () => {
  const ctx = contexts[0]!;
  const [body] = fc.sample(validCreateFor(ctx, 'gitforge'), { numRuns: 1, seed: 7 });
  const tagged = { ...body!, source_revision_config: { ...body!.source_revision_config, repo_ref: 'refs/tags/v1.0.0' } };
  expect(classifyCreate({ ...tagged, source_config: { ...tagged.source_config, build_on_push: false } }, 'hosted').valid).toBe(true);
  expect(classifyCreate({ ...tagged, source_config: { ...tagged.source_config, build_on_push: true } }, 'hosted').breaks).toEqual(['CP-TAG-001']);
});

test('CPU values whose verdict depends on the reading are classified either', () => {
  const body = baseCreate(contexts[1]!, 'external_container', 'apc-x');
  const withCpu = (cpu: number) => ({ ...body, source_config: { ...body.source_config, resource_spec: { cpu } } });
  expect(classifyCreate(withCpu(0.05), 'self-hosted')).toEqual({ valid: false, breaks: [], either: ['CP-RES-002'] });
  expect(classifyCreate(withCpu(0.04), 'self-hosted').breaks).toEqual(['CP-RES-002']);
  expect(classifyCreate(withCpu(7.96), 'self-hosted').valid).toBe(true);
});
