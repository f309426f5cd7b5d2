// Creating, reading and listing deployments (spec 2.1, 3, 4.1): valid bodies over the space the
// spec allows are accepted and read back as sent; bodies missing a required field or of a wrong
// type are refused.
import fc from 'fast-check';
import { classifyCreate } from '../../generators/control-plane/classify.ts';
import { invalidCreate, validCreate, type CreateBody } from '../../generators/control-plane/create-payloads.ts';
import { triggerPatch } from '../../generators/control-plane/patches.ts';
import { requirement, type Check, describeResponse } from '../../harness/conformance/index.ts';
import type { Deployment } from '../../schemas/index.ts';
import { configMismatches, sameJson } from './support/compare.ts';
import { firstOffered, sharedCost, sharedSimple } from './support/shared.ts';
import {
  createRuns,
  DEPLOYMENTS,
  deploymentPath,
  expectRefused,
  field,
  generatorContext,
  isObject,
  patch,
  refusalRuns,
  statusOf,
  tryCreate,
  unknownId,
  creates,
  refusedWaits,
} from './support/steps.ts';

/** Each case's name made unique: fast-check repeats inputs while shrinking. */
let attempt = 0;
const unique = (body: CreateBody): CreateBody => ({ ...body, name: `${body.name}-${(attempt += 1).toString(36)}` });

function checkAsSent(t: Check, body: CreateBody, created: Deployment, seen: string): void {
  t.expect(created.name === body.name && created.source === body.source, {
    requirement: 'CP-CREATE-004',
    message: 'The created deployment does not have the name and source that were sent.',
    expected: { name: body.name, source: body.source },
    seen,
  });
  const config = configMismatches(body.source_config, created.source_config).map((f) => `source_config.${f}`);
  const revision = configMismatches(body.source_revision_config, created.source_revision_config).map((f) => `source_revision_config.${f}`);
  t.expect(config.length + revision.length === 0, {
    requirement: 'CP-CREATE-005',
    message: `The created deployment does not hold the values sent for ${[...config, ...revision].join(', ')}.`,
    expected: { source_config: body.source_config, source_revision_config: body.source_revision_config },
    seen,
  });
  const names = created.secrets.map((s) => s.name);
  const missing = body.secrets.map((s) => s.name).filter((n) => !names.includes(n));
  t.expect(missing.length === 0, {
    requirement: 'CP-CREATE-006',
    message: `The created deployment does not list the secret(s) ${missing.join(', ')} that were sent.`,
    expected: body.secrets.map((s) => s.name),
    seen: names,
  });
}

requirement(
  ['CP-CREATE-001', 'CP-CREATE-002', 'CP-CREATE-003', 'CP-CREATE-004', 'CP-CREATE-005', 'CP-CREATE-006', 'CP-READ-001'],
  async (t: Check) => {
    const ctx = generatorContext(t, 'create');
    await t.property(
      validCreate(ctx),
      async (generated) => {
        const body = unique(generated);
        const exchange = await tryCreate(t, body);
        t.expectStatus(exchange, 201, { requirement: 'CP-CREATE-001' });
        t.expectSchema(exchange, 'Deployment', { requirement: 'CP-CREATE-002' });
        const created = exchange.response!.json as Deployment;
        const seen = describeResponse(exchange);
        t.expect(typeof created.latest_revision_id === 'string', {
          requirement: 'CP-CREATE-003',
          message: 'The create response has no latest_revision_id, though creating a deployment creates its first revision.',
          expected: 'latest_revision_id: <uuid>',
          seen,
        });
        checkAsSent(t, body, created, seen);
        const read = await t.cp.get(deploymentPath(created.id));
        t.expectStatus(read, 200, { requirement: 'CP-READ-001' });
        t.expectSchema(read, 'Deployment', { requirement: 'CP-READ-001' });
        const got = read.response!.json as Deployment;
        t.expect(
          got.id === created.id && got.name === created.name && got.source === created.source && got.latest_revision_id === created.latest_revision_id,
          { requirement: 'CP-READ-001', message: 'GET answered another deployment than the one created.', expected: created, seen: got },
        );
        t.expect(sameJson(got.source_revision_config, created.source_revision_config), {
          requirement: 'CP-READ-001',
          message: 'GET answered other source_revision_config values than the create did.',
          expected: created.source_revision_config,
          seen: got.source_revision_config,
        });
        // Keep the target small: this case's deployment goes now, not at the end of the test.
        await t.cp.delete(deploymentPath(created.id), { query: { delete_tracing_project: true } });
      },
      { numRuns: createRuns(t) },
    );
  },
  { cost: (p) => refusedWaits(creates(createRuns({ profile: p })), 0), title: 'Valid create bodies over the space the spec allows are accepted (201) and read back as sent' },
);

const PATCHED = ['internal_container', 'gitforge', 'external_container', 'internal_source'] as const;

requirement('CP-PATCH-001', async (t: Check) => {
  const created = await sharedSimple(t, PATCHED);
  const ctx = generatorContext(t);
  const [secretsPatch] = fc.sample(triggerPatch(ctx, 'secrets'), { numRuns: 1, seed: t.testSeed });
  for (const body of [{}, secretsPatch]) {
    const exchange = await patch(t, created.id, body);
    // The PATCH's fields only: its generated values are in the recorded exchange, and change with the seed.
    t.expectStatus(exchange, 200, { message: `A PATCH of ${Object.keys(body ?? {}).join(', ') || 'no field'} answered ${statusOf(exchange) ?? 'nothing'}; expected 200.` });
    t.expectSchema(exchange, 'Deployment');
    t.expect(field(exchange.response?.json, 'id') === created.id, { message: 'PATCH answered another deployment.', expected: created.id, seen: exchange.response?.json });
  }
}, { cost: (p) => refusedWaits(sharedCost(p, firstOffered(p, PATCHED), 1), 1) });

/** Listings are read with a deployment of these (the first offered) in them. */
const LISTED = ['internal_container', 'internal_source', 'gitforge', 'external_container'] as const;

requirement('CP-READ-002', async (t: Check) => {
  await sharedSimple(t, LISTED);
  const exchange = await t.cp.get(DEPLOYMENTS);
  t.expectStatus(exchange, 200);
  const body = exchange.response?.json;
  // The spec shows no shape: an array, or an object holding one.
  const items = Array.isArray(body) ? body : isObject(body) ? Object.values(body).find(Array.isArray) : undefined;
  t.expectOn(exchange, Array.isArray(items), {
    message: 'GET /v2/deployments did not answer a list of deployments.',
    expected: 'an array of Deployments, or an object holding one',
  });
  for (const item of items!) t.expectSchema(item, 'Deployment', { message: 'An item of the deployments listing is not a Deployment.' });
}, { cost: (p) => sharedCost(p, firstOffered(p, LISTED)) });

requirement(
  ['CP-READ-005', 'CP-READ-006'],
  async (t: Check) => {
    const created = await sharedSimple(t, LISTED);
    t.expectSchema(await t.cp.get(DEPLOYMENTS), 'DeploymentList', { requirement: 'CP-READ-005' });
    const byName = await t.cp.get(DEPLOYMENTS, { query: { name_contains: created.name } });
    const found = (field(byName.response?.json, 'resources') as Deployment[] | undefined) ?? [];
    t.expectOn(byName, statusOf(byName) === 200 && found.some((d) => d.id === created.id), {
      requirement: 'CP-READ-006',
      message: 'GET /v2/deployments?name_contains=<name> did not list the deployment of that name.',
      expected: created.id,
    });
    const limited = await t.cp.get(DEPLOYMENTS, { query: { limit: 1 } });
    const page = field(limited.response?.json, 'resources');
    t.expectOn(limited, statusOf(limited) === 200 && Array.isArray(page) && page.length <= 1, {
      requirement: 'CP-READ-006',
      message: 'GET /v2/deployments?limit=1 listed more than one deployment.',
      expected: 'at most 1 deployment',
    });
  },
  { cost: (p) => sharedCost(p, firstOffered(p, LISTED)), title: 'The deployments listing as the field notes show it: {resources, offset}, name_contains, limit' },
);

requirement('CP-READ-003', async (t: Check) => {
  expectRefused(t, await t.cp.get(deploymentPath(unknownId())), 'CP-READ-003', 'an id no deployment has');
});

requirement('CP-READ-004', async (t: Check) => {
  const id = unknownId();
  const exchange = await t.cp.get(deploymentPath(id));
  t.expectOn(exchange, statusOf(exchange) === 404 && field(exchange.response?.json, 'detail') === `Deployment ID ${id} not found.`, {
    message: 'GET of an unknown deployment did not answer the field notes’ 404 body.',
    expected: `HTTP 404 {"detail": "Deployment ID ${id} not found."}`,
  });
});

for (const rule of ['CP-CREATE-007', 'CP-CREATE-008'] as const) {
  requirement(rule, async (t: Check) => {
    const ctx = generatorContext(t, 'bad');
    await t.property(
      invalidCreate(ctx, [rule]),
      async ({ payload, why }) => {
        const exchange = await tryCreate(t, payload);
        expectRefused(t, exchange, rule, `a body where ${why}`);
      },
      { numRuns: refusalRuns(t), stillClassified: ({ payload }) => classifyCreate(payload, ctx.mode).breaks.includes(rule) },
    );
  });
}
