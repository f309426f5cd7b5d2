// CP-LIFE-004 PATCHes while the first revision is in progress, so the two builds overlap. A target
// may supersede a revision that a newer one overtakes (it ends INTERRUPTED and is never active, a
// status the field notes list): that is no fault, and the test judges the newer revision, the one
// the rule speaks of. Two duties: such a target passes.
import { expect, test } from 'vitest';
import { editJson, type ProxyRules } from '../../../harness/proxy/proxy.ts';
import { answerJson, routeOf, type Json } from '../../../harness/selftest/mutants/deployment-traffic.ts';
import { isObject } from '../../../schemas/is-object.ts';
import { certifyThroughProxy } from '../../support/proxied-certify.ts';

/**
 * The reference, seen as a target that supersedes: a revision that was not yet seen DEPLOYED when a
 * PATCH made a newer one reads INTERRUPTED from then on, and the deployment never names it active
 * (it names the active revision before it). Every view agrees: the revision, the listing, the
 * deployment's reads and the PATCH answers.
 */
function superseding(superseded: Set<string>): ProxyRules {
  const latest = new Map<string, string>();
  const seenDeployed = new Set<string>();
  const shownActive = new Map<string, unknown>();
  const revision = (r: Json) => {
    if (superseded.has(r.id as string)) r.status = 'INTERRUPTED';
    else if (r.status === 'DEPLOYED') seenDeployed.add(r.id as string);
  };
  const deployment = (d: Json, patched: boolean) => {
    const id = d.id as string;
    const previous = latest.get(id);
    if (patched && previous && previous !== d.latest_revision_id && !seenDeployed.has(previous)) superseded.add(previous);
    if (typeof d.latest_revision_id === 'string') latest.set(id, d.latest_revision_id);
    if (superseded.has(d.active_revision_id as string)) d.active_revision_id = shownActive.get(id) ?? null;
    else shownActive.set(id, d.active_revision_id);
  };
  return {
    answer(request, answer) {
      const route = routeOf(request.path);
      if (answer.status >= 300 || !answerJson(answer)) return answer;
      if (route.revisionId) return editJson(answer, revision);
      if (route.revisions) return editJson(answer, (json) => (Array.isArray(json.resources) ? json.resources : []).filter(isObject).forEach(revision));
      if (route.deploymentId || (route.collection && request.method === 'POST')) return editJson(answer, (d) => deployment(d, request.method === 'PATCH'));
      return answer;
    },
  };
}

test('a target that supersedes an overtaken revision passes the revision lifecycle rules: CP-LIFE-004 judges the newer revision', async () => {
  // Phases of 100 ms: the first revision is seen moving on before it ends, so CP-LIFE-004 PATCHes while it is in progress.
  const superseded = new Set<string>();
  const run = await certifyThroughProxy({
    target: { phaseMs: 100 },
    through: 'control-plane',
    rules: superseding(superseded),
    args: ['--interfaces', 'control-plane', '--requirements', 'CP-LIFE-*', '--seed', '1'],
    timeoutMs: 240_000,
  });
  for (const id of ['CP-LIFE-001', 'CP-LIFE-002', 'CP-LIFE-003', 'CP-LIFE-004']) expect(run.status(id), `${id}\n${run.output}`).toBe('passed');
  // The PATCH went while the first revision was in progress, and the target superseded it.
  expect(superseded.size, run.output).toBeGreaterThan(0);
}, 300_000);
