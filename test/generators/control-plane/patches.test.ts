// PATCH bodies: triggers create one revision, the others none, immutable changes and invalid
// bodies are classified as what they were made to be.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { validate, type Source } from '../../../schemas/index.ts';
import { classifyPatch, expectedRevisionDelta, type DeploymentView } from '../../../generators/control-plane/classify.ts';
import { validSources } from '../../../generators/control-plane/context.ts';
import { baseCreate } from '../../../generators/control-plane/create-payloads.ts';
import { changedValuePatch, combinedTriggerPatch, immutableChange, invalidPatch, nonTriggerPatch, triggerPatch, triggersFor } from '../../../generators/control-plane/patches.ts';
import { contexts, hosted } from './contexts.ts';

const views = contexts.flatMap((ctx) =>
  validSources(ctx).map((source) => {
    const body = baseCreate(ctx, source, `${ctx.namePrefix}-p`);
    const view: DeploymentView = { name: body.name, source, source_config: body.source_config, source_revision_config: body.source_revision_config };
    return { ctx, source, view, label: `${ctx.mode} ${source}` };
  }),
);

describe.each(views)('$label deployment', ({ ctx, source, view }) => {
  test('each trigger alone is a valid PATCH that creates one revision', () => {
    for (const trigger of triggersFor(source)) {
      fc.assert(
        fc.property(triggerPatch(ctx, trigger), (patch) => {
          expect(validate('DeploymentPatchRequest', patch).ok).toBe(true);
          expect(classifyPatch(patch, view, ctx.mode).valid).toBe(true);
          expect(expectedRevisionDelta(patch, view)).toBe(1);
        }),
        { numRuns: 30 },
      );
    }
  });

  test('combined triggers make a valid PATCH that creates one revision', () => {
    if (triggersFor(source).length < 2) return;
    fc.assert(
      fc.property(combinedTriggerPatch(ctx, source), ({ patch, triggers }) => {
        expect(triggers.length).toBeGreaterThanOrEqual(2);
        expect(classifyPatch(patch, view, ctx.mode).valid).toBe(true);
        expect(expectedRevisionDelta(patch, view)).toBe(1);
      }),
      { numRuns: 50 },
    );
  });

  test('non-trigger PATCHes are valid and create no revision', () => {
    fc.assert(
      fc.property(nonTriggerPatch(source), (patch) => {
        expect(validate('DeploymentPatchRequest', patch).ok).toBe(true);
        expect(classifyPatch(patch, view, ctx.mode)).toEqual({ valid: true, breaks: [], either: [], immutable: [] });
        expect(expectedRevisionDelta(patch, view)).toBe(0);
      }),
      { numRuns: 100 },
    );
  });

  test('immutable changes are classified as such, for the fields the source has', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(immutableChange(ctx, source, view), ({ patch, requirement }) => {
        seen.add(requirement);
        const verdict = classifyPatch(patch, view, ctx.mode);
        expect(verdict.immutable).toEqual([requirement]);
        expect(verdict.valid).toBe(false);
        expect(verdict.breaks).toEqual([]);
      }),
      { numRuns: 100 },
    );
    const expected = { gitforge: 5, external_container: 4, internal_container: 2, internal_source: 2 }[source as Source];
    expect(seen.size).toBe(expected);
  });

  test('invalid PATCHes break the rule they name', () => {
    fc.assert(
      fc.property(invalidPatch(ctx, source, { buildOnPush: view.source_config.build_on_push as boolean | undefined }), ({ patch, breaks, why }) => {
        const verdict = classifyPatch(patch, view, ctx.mode);
        expect(verdict.breaks, why).toContain(breaks);
      }),
      { numRuns: 100 },
    );
  });
});

test('a tag ref with build_on_push already true is TAG-003; enabling build_on_push on a tag ref is TAG-004', () => {
  const ctx = contexts[0]!;
  const body = baseCreate(ctx, 'gitforge', 'apc-t');
  const view: DeploymentView = { name: body.name, source: 'gitforge', source_config: { ...body.source_config, build_on_push: true }, source_revision_config: body.source_revision_config };
  expect(classifyPatch({ source_revision_config: { repo_ref: 'refs/tags/v1' } }, view, 'hosted').breaks).toEqual(['CP-TAG-003']);
  const tagged: DeploymentView = { ...view, source_config: { ...view.source_config, build_on_push: false }, source_revision_config: { repo_ref: 'refs/tags/v1' } };
  expect(classifyPatch({ source_config: { build_on_push: true } }, tagged, 'hosted').breaks).toEqual(['CP-TAG-004']);
  expect(classifyPatch({ source_config: { build_on_push: false } }, tagged, 'hosted').valid).toBe(true);
});

test('resource_spec creates a revision only where it applies', () => {
  expect(expectedRevisionDelta({ source_config: { resource_spec: { cpu: 1 } } }, { source: 'external_container' })).toBe(1);
  expect(expectedRevisionDelta({ source_config: { resource_spec: null, build_on_push: false } }, { source: 'gitforge' })).toBe(0);
  expect(expectedRevisionDelta({ source_revision_config: { image_uri: null, repo_ref: null } }, { source: 'gitforge' })).toBe(0);
  expect(expectedRevisionDelta({ secrets: [] }, { source: 'internal_container' })).toBe(1);
});

test('changedValuePatch changes the value a deployment holds now: to the second fixture value, or back to the first when it holds the second already (a pooled deployment another test PATCHed)', () => {
  const fx = { ...hosted.fixtures, imageUri: 'r/a:1', otherImageUri: 'r/a:2', gitforge: { ...hosted.fixtures.gitforge, otherRepoRef: 'next' } };
  expect(changedValuePatch(fx, 'internal_container')).toEqual({ source_revision_config: { image_uri: 'r/a:2' } });
  expect(changedValuePatch(fx, 'internal_container', { image_uri: 'r/a:1' })).toEqual({ source_revision_config: { image_uri: 'r/a:2' } });
  expect(changedValuePatch(fx, 'internal_container', { image_uri: 'r/a:2' })).toEqual({ source_revision_config: { image_uri: 'r/a:1' } });
  expect(changedValuePatch(fx, 'gitforge', { repo_ref: 'next' })).toEqual({ source_revision_config: { repo_ref: 'main' } });
  expect(changedValuePatch(hosted.fixtures, 'internal_container', { image_uri: 'x' })).toBeUndefined();
});
