// Authentication and tenants (spec 2.1, 5): every control-plane request needs a valid X-Api-Key
// (refused with a 4xx otherwise, without effect); a deployment belongs to the workspace of
// X-Tenant-Id and is invisible and untouchable from another workspace.
import fc from 'fast-check';
import { triggerPatch } from '../../generators/control-plane/patches.ts';
import { type Auth, requirement, type Check, type Exchange, foreignTenant, type TargetProfile } from '../../harness/conformance/index.ts';
import type { Deployment } from '../../schemas/index.ts';
import {
  DEPLOYMENTS,
  deploymentPath,
  expectRefused,
  field,
  generatorContext,
  getDeployment,
  is2xx,
  registerDeletion,
  revisionCount,
  revisionsPath,
  pickSource,
  simpleBody,
  statusOf,
  refusedWaits,
} from './support/steps.ts';
import { firstOffered, sharedCost, sharedSimple, withOwn } from './support/shared.ts';

/** Credentials are tried on a deployment of the first offered of these (the run's where its creates are limited: a test that breaks it fails, and the next test gets another). */
const SOME = ['internal_container', 'gitforge', 'external_container', 'internal_source'] as const;
const someDeployment = (t: Check): Promise<Deployment> => sharedSimple(t, SOME);
/** Their PATCHes go at once (refused for their credentials, or sent for another workspace): they wait for no revision. */
const onSomeDeployment = (p: TargetProfile) => refusedWaits(sharedCost(p, firstOffered(p, SOME)), 0);

/** One request of each kind, all with `auth`; every one must be refused. */
async function everyKindOfRequest(t: Check, deployment: Deployment, auth: Auth): Promise<Exchange[]> {
  const [secrets] = fc.sample(triggerPatch(generatorContext(t), 'secrets'), { numRuns: 1, seed: t.testSeed });
  const created = await t.cp.post(DEPLOYMENTS, simpleBody(t, deployment.source, 'noauth'), { auth });
  const id = field(created.response?.json, 'id');
  if (is2xx(created) && typeof id === 'string') registerDeletion(t, id);
  return [
    await t.cp.get(DEPLOYMENTS, { auth }),
    await t.cp.get(deploymentPath(deployment.id), { auth }),
    await t.cp.get(revisionsPath(deployment.id), { auth }),
    created,
    await t.cp.patch(deploymentPath(deployment.id), secrets, { auth }),
    await t.cp.delete(deploymentPath(deployment.id), { auth }),
  ];
}

/** Every exchange refused with a 4xx: section 5 fixes no status for a credentials refusal (401, 403, 422 ... all conform). */
function expectAllRefused(t: Check, exchanges: Exchange[], rule: string, credentials: string): void {
  for (const exchange of exchanges) expectRefused(t, exchange, rule, credentials);
}

/** A key no target issued: the real key with its characters changed, so format checks pass. */
const wrongKey = (t: Check): string => {
  const key = t.profile.apiKey ?? 'apc-key';
  return `${key.slice(0, -4)}${key.slice(-4) === 'xxxx' ? 'yyyy' : 'xxxx'}`;
};

requirement('CP-AUTH-001', async (t: Check) => {
  const deployment = await someDeployment(t);
  expectAllRefused(t, await everyKindOfRequest(t, deployment, 'none'), 'CP-AUTH-001', 'no X-Api-Key');
}, { cost: onSomeDeployment });

requirement('CP-AUTH-002', async (t: Check) => {
  const deployment = await someDeployment(t);
  const auth: Auth = { apiKey: wrongKey(t), ...(t.profile.tenantId ? { tenantId: t.profile.tenantId } : {}) };
  expectAllRefused(t, await everyKindOfRequest(t, deployment, auth), 'CP-AUTH-002', 'an invalid X-Api-Key');
}, { cost: onSomeDeployment });

requirement('CP-AUTH-003', async (t: Check) => {
  const deployment = await someDeployment(t);
  const before = await revisionCount(t, deployment.id);
  await everyKindOfRequest(t, deployment, 'none');
  await everyKindOfRequest(t, deployment, { apiKey: wrongKey(t), ...(t.profile.tenantId ? { tenantId: t.profile.tenantId } : {}) });
  const after = await t.cp.get(deploymentPath(deployment.id));
  // Deletion may be asynchronous: a deployment on its way shows AWAITING_DELETE.
  t.expectOn(after, statusOf(after) === 200 && field(after.response?.json, 'status') !== 'AWAITING_DELETE', {
    message: 'A DELETE without valid credentials deleted the deployment.',
    expected: 'HTTP 200, a deployment not AWAITING_DELETE',
  });
  const count = await revisionCount(t, deployment.id);
  t.expect(count === before, { message: 'A PATCH without valid credentials created a revision.', expected: before, seen: count });
}, { cost: onSomeDeployment });

/** The other workspace's credentials (fixture:other-tenant). */
const other = (t: Check): Auth => t.profile.otherTenant!;

requirement('CP-TEN-001', async (t: Check) => {
  const deployment = await someDeployment(t);
  expectRefused(t, await t.cp.get(deploymentPath(deployment.id), { auth: other(t) }), 'CP-TEN-001', "another workspace's credentials");
  expectRefused(t, await t.cp.get(revisionsPath(deployment.id), { auth: other(t) }), 'CP-TEN-001', "another workspace's credentials");
}, { cost: onSomeDeployment });

requirement('CP-TEN-002', async (t: Check) => {
  const deployment = await someDeployment(t);
  const [secrets] = fc.sample(triggerPatch(generatorContext(t), 'secrets'), { numRuns: 1, seed: t.testSeed });
  expectRefused(t, await t.cp.patch(deploymentPath(deployment.id), secrets, { auth: other(t) }), 'CP-TEN-002', "another workspace's credentials");
  expectRefused(t, await t.cp.delete(deploymentPath(deployment.id), { auth: other(t) }), 'CP-TEN-002', "another workspace's credentials");
  const after = await getDeployment(t, deployment.id);
  t.expect(after.status !== 'AWAITING_DELETE', {
    message: "A DELETE with another workspace's credentials deleted the deployment (it is AWAITING_DELETE).",
    expected: 'a status other than AWAITING_DELETE',
    seen: after.status,
  });
  t.expect(after.latest_revision_id === deployment.latest_revision_id, {
    message: "A PATCH with another workspace's credentials created a revision.",
    expected: deployment.latest_revision_id,
    seen: after.latest_revision_id,
  });
}, { cost: onSomeDeployment });

requirement('CP-TEN-003', async (t: Check) => {
  const deployment = await someDeployment(t);
  for (const query of [{}, { name_contains: deployment.name }]) {
    const exchange = await t.cp.get(DEPLOYMENTS, { auth: other(t), query });
    t.expectOn(exchange, !exchange.response?.text.includes(deployment.id), {
      message: "Another workspace's listing of deployments shows the deployment.",
      expected: `no deployment ${deployment.id}`,
    });
  }
}, { cost: onSomeDeployment });

requirement('CP-TEN-004', async (t: Check) => {
  const deployment = await someDeployment(t);
  const tenant = t.profile.tenantId;
  if (!tenant) t.notApplicable('tenant-id', 'the profile gives no tenantId, so no X-Tenant-Id was sent to compare tenant_id with');
  const check = (created: unknown, expected: string, which: string) =>
    t.expect(String(field(created, 'tenant_id') ?? '').toLowerCase() === expected.toLowerCase(), {
      message: `The deployment created in ${which} workspace has a tenant_id other than the workspace named by X-Tenant-Id.`,
      expected,
      seen: field(created, 'tenant_id'),
    });
  check(deployment, tenant, 'the main');
  // With one workspace alone, a target that gave every deployment one fixed tenant_id would pass:
  // a deployment created in a second workspace must carry that workspace's id.
  const auth = t.profile.otherTenant;
  // Without a second workspace, the main one's check above is the whole judgement.
  if (auth?.tenantId && auth.tenantId.toLowerCase() !== tenant.toLowerCase()) {
    const exchange = await t.cp.post(DEPLOYMENTS, simpleBody(t, pickSource(t, SOME), 'ten-other'), { auth });
    const id = field(exchange.response?.json, 'id');
    if (is2xx(exchange) && typeof id === 'string') t.cleanup(`DELETE ${deploymentPath(id)} (the other workspace)`, async () => void (await t.cp.delete(deploymentPath(id), { auth, query: { delete_tracing_project: true } })), { alongside: true });
    t.needSuccess(exchange, { requirement: 'CP-CREATE-001', message: `Creating a deployment with the other workspace's credentials answered ${statusOf(exchange) ?? 'nothing'}; this test needs it accepted.` });
    check(exchange.response!.json, auth.tenantId, 'the other');
  }
}, { cost: (p) => withOwn(onSomeDeployment(p), p.otherTenant ? 1 : 0) });

// Judged only with a workspace the main key may not act for (fixture:foreign-tenant): a second
// workspace the same organization key acts for is no such workspace.
requirement('CP-TEN-005', async (t: Check) => {
  const foreign = foreignTenant(t.profile)!;
  if (!t.profile.apiKey) t.notApplicable('api-key', 'the profile gives no API key to send with a foreign X-Tenant-Id');
  const exchange = await t.cp.get(DEPLOYMENTS, { auth: { apiKey: t.profile.apiKey, tenantId: foreign } });
  expectRefused(t, exchange, 'CP-TEN-005', 'a valid key and the X-Tenant-Id of a workspace the key may not act for');
});
