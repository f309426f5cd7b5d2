// Source kinds and the fields that apply to each (spec 1.A, 2.1-2.3): which sources each mode
// accepts, "Only for ..." fields refused for other sources, graph_config_path required or
// forbidden, and a tag repo_ref never built on push.
import fc from 'fast-check';
import { classifyCreate, classifyPatch } from '../../generators/control-plane/classify.ts';
import { invalidCreate, type CreateBody } from '../../generators/control-plane/create-payloads.ts';
import { invalidPatch } from '../../generators/control-plane/patches.ts';
import { tagRef } from '../../generators/control-plane/values.ts';
import { byLimit, requirement, type Check } from '../../harness/conformance/index.ts';
import type { Deployment, Source } from '../../schemas/index.ts';
import { sharedCost, sharedCreate, sharedDeployment, sharedSimple } from './support/shared.ts';
import {
  createDeployment,
  expectPatchRefused,
  expectRefused,
  generatorContext,
  offered,
  patch,
  refusalRuns,
  revisionCount,
  simpleBody,
  tryCreate,
  expectAccepted,
  creates,
  refusedWaits,
} from './support/steps.ts';

/**
 * A create of the simplest valid body of `source` is accepted. Where the run hands one deployment
 * of that source to many tests it is that deployment's create (support/shared.ts), made by
 * whichever test needed it first: the same body, sent once.
 */
function accepts(id: string, source: Source): void {
  requirement(id, async (t: Check) => {
    expectAccepted(t, await sharedCreate(t, source, () => simpleBody(t, source, 'shared')), id, `the simplest valid ${source} body`);
  }, { cost: (p) => sharedCost(p, source) });
}

accepts('CP-SRC-001', 'gitforge');
accepts('CP-SRC-003', 'external_container');
accepts('CP-SRC-005', 'internal_container');
accepts('CP-SRC-006', 'internal_source');

/** Bodies made invalid for exactly `rule` are refused with a 4xx, whatever else they hold. */
function refusesCreate(rule: string): void {
  requirement(rule, async (t: Check) => {
    const ctx = generatorContext(t, 'bad');
    await t.property(
      invalidCreate(ctx, [rule]),
      async ({ payload, why }) => expectRefused(t, await tryCreate(t, payload), rule, `a body where ${why}`),
      // The cases are independent refusals: side by side, a target that answers a create seconds late is not waited on one case at a time.
      { numRuns: refusalRuns(t), stillClassified: ({ payload }) => classifyCreate(payload, ctx.mode).breaks.includes(rule), sideBySide: true },
    );
  });
}

for (const rule of [
  'CP-SRC-002',
  'CP-SRC-004',
  'CP-SRC-007',
  'CP-APPL-001',
  'CP-APPL-002',
  'CP-APPL-003',
  'CP-APPL-004',
  'CP-APPL-005',
  'CP-APPL-006',
  'CP-GRAPH-001',
  'CP-GRAPH-002',
  'CP-GRAPH-003',
  'CP-GRAPH-004',
  'CP-TAG-001',
]) {
  refusesCreate(rule);
}

/** The profile's tag of the fixture repository, or a made-up tag when it names none. */
function tag(t: Check): string {
  return t.profile.fixtures.gitforge.tagRef ?? fc.sample(tagRef, { numRuns: 1, seed: t.testSeed })[0]!;
}

/** A gitforge body whose repo_ref is a tag. */
function taggedBody(t: Check, buildOnPush: boolean): CreateBody {
  const body = simpleBody(t, 'gitforge', 'tag');
  const ref = tag(t);
  return {
    ...body,
    source_config: { ...body.source_config, build_on_push: buildOnPush },
    source_revision_config: { ...body.source_revision_config, repo_ref: ref },
  };
}

/** CP-TAG-002's create serves CP-TAG-004 too (the run's one where its creates are limited). */
const TAGGED = 'gitforge-tagged';

requirement('CP-TAG-002', async (t: Check) => {
  expectAccepted(t, await sharedCreate(t, TAGGED, () => taggedBody(t, false)), 'CP-TAG-002', 'a gitforge body whose repo_ref is a tag, with build_on_push false');
}, { cost: (p) => sharedCost(p, TAGGED) });

requirement('CP-TAG-003', async (t: Check) => {
  const body = simpleBody(t, 'gitforge', 'tag');
  const created = await createDeployment(t, { ...body, source_config: { ...body.source_config, build_on_push: true } });
  const before = await revisionCount(t, created.id);
  const ref = tag(t);
  expectPatchRefused(t, await patch(t, created.id, { source_revision_config: { repo_ref: ref } }), 'CP-TAG-003', 'sets repo_ref to a tag while build_on_push is true');
  t.expect((await revisionCount(t, created.id)) === before, { message: 'The refused PATCH created a revision.', requirement: 'CP-TAG-003' });
}, { cost: creates(1) });

requirement('CP-TAG-004', async (t: Check) => {
  const created = await sharedDeployment(t, TAGGED, () => taggedBody(t, false));
  expectPatchRefused(t, await patch(t, created.id, { source_config: { build_on_push: true } }), 'CP-TAG-004', 'enables build_on_push while repo_ref is a tag');
}, { cost: (p) => sharedCost(p, TAGGED) });

const APPLYING = ['gitforge', 'external_container', 'internal_container', 'internal_source'] as const;

requirement('CP-APPL-007', async (t: Check) => {
  const ctx = generatorContext(t, 'appl');
  // One deployment of each offered source, each sent the fields that do not apply to it. All are
  // created first: where PATCHes wait for a revision in progress, they wait for the builds together.
  const deployments: [Source, Deployment][] = [];
  for (const source of offered(t, APPLYING)) deployments.push([source, await sharedSimple(t, [source])]);
  for (const [source, created] of deployments) {
    const invalid = invalidPatch(ctx, source).filter((c) => c.breaks === 'CP-APPL-007');
    await t.property(
      invalid,
      async ({ patch: body, why }) => expectPatchRefused(t, await patch(t, created.id, body), 'CP-APPL-007', why),
      {
        numRuns: Math.max(2, Math.ceil(refusalRuns(t) / 3)),
        stillClassified: ({ patch: body }) => classifyPatch(body, created, ctx.mode).breaks.includes('CP-APPL-007'),
      },
    );
  }
}, {
  // Where PATCHes wait for a revision in progress: new deployments' builds together; the run's (where its creates are limited) one after another.
  cost: (p) => {
    const sources = offered({ profile: p }, APPLYING);
    return refusedWaits(sharedCost(p, sources), byLimit(p, { unlimited: 1, limited: sources.length }));
  },
});
