// Immutable fields (spec 2.1, 2.2): a PATCH that tries to change name, source, integration_id,
// repo_url, deployment_type, listener_id or cluster_namespace is refused (400 or 422) or leaves
// the field as it was; either way the field never changes.
import { immutableChange } from '../../generators/control-plane/patches.ts';
import { IMMUTABLE_FIELDS, valueAt } from '../../generators/control-plane/source-rules.ts';
import { requirement, type Check } from '../../harness/conformance/index.ts';
import type { Source } from '../../schemas/index.ts';
import { sameJson } from './support/compare.ts';
import { firstOffered, sharedCost, sharedSimple } from './support/shared.ts';
import { generatorContext, getDeployment, patch, pickSource, statusOf } from './support/steps.ts';

/** Runs per field: each case is one PATCH and one GET. */
const runs = (t: Check) => Math.max(2, Math.min(t.profile.runs, 5));

const RULES = ['CP-IMM-001', 'CP-IMM-002', 'CP-IMM-003', 'CP-IMM-004', 'CP-IMM-005', 'CP-IMM-006', 'CP-IMM-007'];

for (const id of RULES) {
  const rule = IMMUTABLE_FIELDS.find((f) => f.requirement === id)!;
  requirement(id, async (t: Check) => {
    // The deployment the test is handed (support/shared.ts) as it is now: the field must keep the value read here.
    const source: Source = pickSource(t, rule.sources, `it has ${rule.field}`);
    const created = await sharedSimple(t, [source]);
    const original = valueAt(created, rule.path) ?? null;
    const changes = immutableChange(generatorContext(t), source, created).filter((c) => c.field === rule.field);
    await t.property(
      changes,
      async ({ patch: body }) => {
        const exchange = await patch(t, created.id, body);
        t.expectStatus(exchange, [200, 400, 422], {
          message: `A PATCH trying to change ${rule.field} answered ${statusOf(exchange) ?? 'nothing'}; expected 400 or 422 (refused) or 200 (ignored).`,
        });
        if (statusOf(exchange) === 200) {
          t.expectOn(exchange, sameJson(valueAt(exchange.response?.json, rule.path) ?? null, original), {
            message: `A PATCH changed the immutable field ${rule.field}.`,
            expected: { [rule.field]: original },
          });
        }
        const after = await getDeployment(t, created.id);
        t.expect(sameJson(valueAt(after, rule.path) ?? null, original), {
          message: `After a PATCH trying to change it, ${rule.field} reads differently.`,
          expected: { [rule.field]: original },
          seen: { [rule.field]: valueAt(after, rule.path) ?? null },
        });
      },
      { numRuns: runs(t) },
    );
  }, { cost: (p) => sharedCost(p, firstOffered(p, rule.sources)) });
}
