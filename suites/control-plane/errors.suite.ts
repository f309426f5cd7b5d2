// PATCH errors (spec 4.1, 7): 404 {detail} naming the unknown deployment, 422 HTTPValidationError
// for schema violations, 400 {detail: string}; a refused PATCH changes nothing.
import { classifyPatch } from '../../generators/control-plane/classify.ts';
import { invalidPatch } from '../../generators/control-plane/patches.ts';
import { requirement, type Check, type Exchange, type TargetProfile } from '../../harness/conformance/index.ts';
import { validate, type Deployment } from '../../schemas/index.ts';
import { sameJson } from './support/compare.ts';
import { firstOffered, sharedCost, sharedSimple } from './support/shared.ts';
import { DEPLOYMENTS, deploymentPath, field, generatorContext, getDeployment, patch, refusalRuns, statusOf, unknownId } from './support/steps.ts';

/** The body a refused PATCH must carry for its status (spec 7); `rules` name 400 and 422 shapes. */
function expectErrorBody(t: Check, exchange: Exchange, rules: { on400: string; on422: string; on404?: string }): void {
  // Every refusal checks each body rule: a rule about a status the answer does not have holds for
  // it, so a target that never answers 400 is judged, and passes, on the 400 body rule.
  const status = statusOf(exchange);
  const body = exchange.response?.json;
  const detailBody = typeof field(body, 'detail') === 'string';
  for (const [code, rule] of [[400, rules.on400], [404, rules.on404]] as const) {
    if (rule === undefined) continue;
    t.expectOn(exchange, status !== code || detailBody, {
      requirement: rule,
      message: `A PATCH answered ${status} without the body {"detail": <string>}.`,
      expected: '{"detail": "<string>"}',
    });
  }
  t.expectOn(exchange, status !== 422 || validate('HTTPValidationError', body).ok, {
    requirement: rules.on422,
    message: 'A PATCH answered 422 without an HTTPValidationError body.',
    expected: '{"detail": [{"loc": [...], "msg": "...", "type": "..."}]}',
  });
}

/** The refusal checks run against a deployment of the first offered of these. */
const REFUSING = ['internal_container', 'gitforge', 'external_container', 'internal_source'] as const;
const anyDeployment = (t: Check): Promise<Deployment> => sharedSimple(t, REFUSING);
const onAnyDeployment = (p: TargetProfile) => sharedCost(p, firstOffered(p, REFUSING));

requirement(['CP-ERR-001', 'CP-ERR-002'], async (t: Check) => {
  const id = unknownId();
  const exchange = await patch(t, id, {});
  t.expectStatus(exchange, 404, { requirement: 'CP-ERR-001' });
  const detail = field(exchange.response?.json, 'detail');
  t.expectOn(exchange, typeof detail === 'string', { requirement: 'CP-ERR-001', message: 'The 404 of a PATCH has no {"detail": <string>} body.', expected: '{"detail": "<string>"}' });
  t.expect((detail as string).toLowerCase().includes(id.toLowerCase()), {
    requirement: 'CP-ERR-002',
    message: 'The 404 detail of a PATCH does not name the deployment id that was not found.',
    expected: `a detail containing ${id}`,
    seen: detail,
  });
});

requirement('CP-ERR-009', async (t: Check) => {
  const id = unknownId();
  const exchange = await patch(t, id, {});
  const detail = field(exchange.response?.json, 'detail');
  t.expectOn(exchange, statusOf(exchange) === 404 && detail === `Deployment ID ${id} not found.`, {
    message: 'The 404 of a PATCH is not worded as the field notes show.',
    expected: `HTTP 404 {"detail": "Deployment ID ${id} not found."}`,
  });
});

requirement(['CP-ERR-003', 'CP-ERR-005'], async (t: Check) => {
  const deployment = await anyDeployment(t);
  const ctx = generatorContext(t);
  await t.property(
    invalidPatch(ctx, deployment.source).filter((c) => c.breaks === 'CP-ERR-003'),
    async ({ patch: body, why }) => {
      const exchange = await patch(t, deployment.id, body);
      t.expectStatus(exchange, 422, { requirement: 'CP-ERR-003', message: `A PATCH where ${why} answered ${statusOf(exchange) ?? 'nothing'}; a schema violation is 422.` });
      expectErrorBody(t, exchange, { on400: 'CP-ERR-003', on422: 'CP-ERR-005' });
    },
    { numRuns: Math.max(3, Math.min(t.profile.runs, 8)) },
  );
}, { cost: onAnyDeployment });

requirement(
  ['CP-ERR-004', 'CP-ERR-005', 'CP-ERR-007'],
  async (t: Check) => {
    const deployment = await anyDeployment(t);
    const ctx = generatorContext(t);
    await t.property(
      invalidPatch(ctx, deployment.source, { buildOnPush: deployment.source_config.build_on_push ?? null }),
      async ({ patch: body }) => {
        const before = await getDeployment(t, deployment.id);
        const exchange = await patch(t, deployment.id, body);
        // Whether it is refused is each rule's own check; here: what a refusal looks like and leaves.
        // The body rules judge every answer; CP-ERR-007 only a refusal (a case with none leaves it unjudged).
        expectErrorBody(t, exchange, { on400: 'CP-ERR-004', on422: 'CP-ERR-005' });
        const refused = statusOf(exchange) === 400 || statusOf(exchange) === 422;
        const after = refused ? await getDeployment(t, deployment.id) : undefined;
        // Status and updated_at may move with a build meanwhile; the values a PATCH sets may not.
        if (after) {
          t.expect(after.latest_revision_id === before.latest_revision_id && sameJson(after.source_config, before.source_config) && sameJson(after.secrets, before.secrets), {
            requirement: 'CP-ERR-007',
            message: 'A refused PATCH changed the deployment.',
            expected: before,
            seen: after,
          });
        }
      },
      { numRuns: refusalRuns(t), stillClassified: ({ patch: body }) => classifyPatch(body, deployment, ctx.mode).breaks.length > 0 },
    );
  },
  { cost: onAnyDeployment, title: 'A refused PATCH answers 400 {detail: string} or 422 HTTPValidationError, and changes nothing' },
);

requirement(['CP-ERR-006', 'CP-ERR-004', 'CP-ERR-005'], async (t: Check) => {
  const deployment = await anyDeployment(t);
  for (const [rawBody, what] of [['{"secrets": [', 'a body that is not valid JSON'], [undefined, 'no body']] as const) {
    const exchange = await t.cp.request({ method: 'PATCH', path: deploymentPath(deployment.id), ...(rawBody !== undefined ? { rawBody } : {}) });
    t.expectStatus(exchange, [400, 422], { requirement: 'CP-ERR-006', message: `A PATCH with ${what} answered ${statusOf(exchange) ?? 'nothing'}; expected 400 or 422.` });
    expectErrorBody(t, exchange, { on400: 'CP-ERR-004', on422: 'CP-ERR-005' });
  }
}, { cost: onAnyDeployment });

requirement(['CP-ERR-008', 'CP-ERR-004', 'CP-ERR-005'], async (t: Check) => {
  const exchange = await patch(t, 'not-a-uuid', {});
  // 400 (bad request), 404 (no such deployment) and 422 (validation) all fit a malformed id (spec 7).
  t.expectStatus(exchange, [400, 404, 422], { requirement: 'CP-ERR-008' });
  // The 400 and 422 bodies are every PATCH refusal's rules (CP-ERR-004, CP-ERR-005).
  expectErrorBody(t, exchange, { on400: 'CP-ERR-004', on422: 'CP-ERR-005', on404: 'CP-ERR-008' });
});

requirement('CP-ERR-010', async (t: Check) => {
  const exchange = await t.cp.get(DEPLOYMENTS, { auth: { apiKey: t.profile.apiKey ?? '' } });
  // A key with a single workspace needs no tenant header: then there is nothing to see.
  if (statusOf(exchange) !== 403) t.skip(`a request without X-Tenant-Id was not refused 403 (it answered ${statusOf(exchange) ?? 'nothing'}), so there is no such refusal to check`);
  t.expectOn(exchange, field(exchange.response?.json, 'detail') === 'requires workspace specification', {
    message: 'A request without X-Tenant-Id was refused 403 with another body than the field notes show.',
    expected: '{"detail": "requires workspace specification"}',
  });
});
