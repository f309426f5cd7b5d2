// Concurrent PATCHes (spec 3): each revision-creating PATCH creates exactly one revision even when
// several arrive at once; none is lost and the listing stays newest first. At most the profile's
// concurrency limit of requests is in flight. These PATCHes skip the wait for an idle deployment
// that every other PATCH makes (revision-wait.ts): a target that refuses a new revision while one
// is in progress (`busyPatch: refused`) may then answer a 4xx with a `detail`, and only the
// PATCHes it accepted must each make their revision.
import fc from 'fast-check';
import { triggerPatch } from '../../generators/control-plane/patches.ts';
import { requirement, type Check, type Exchange, type TargetProfile, byLimit, ConformanceFailure, learnBusyPatchRefused } from '../../harness/conformance/index.ts';
import { firstOffered, sharedCost, sharedSimple } from './support/shared.ts';
import { createSimple, creates, deploymentPerPatch, refusedWaits, field, generatorContext, getDeployment, is4xx, listRevisions, patch, patchAddingRevision, statusOf } from './support/steps.ts';
import { untilIdle } from './support/revision-wait.ts';
import { busyDetail } from './support/busy-patch.ts';

const CONCURRENT = ['internal_container', 'gitforge', 'external_container', 'internal_source'] as const;
/** How many PATCHes are sent at once (each a build: three where the run's creates are limited). */
const atOnce = (p: TargetProfile) => byLimit(p, { unlimited: Math.max(3, Math.min(p.concurrency, 8)), limited: 3 });

/**
 * The PATCHes sent at once, once the deployment is idle (where the target is known to refuse a
 * PATCH while busy). Where the profile did not say so and every one was refused as busy (the
 * revision of the PATCH before was in progress), the run learns it and they go again, once idle.
 */
async function concurrentPatches(t: Check, id: string, bodies: unknown[]): Promise<Exchange[]> {
  const known = t.profile.busyPatch === 'refused';
  await untilIdle(t, id);
  const sent = await Promise.all(bodies.map((body) => patch(t, id, body, { whileBusy: true })));
  const busy = sent.map(busyDetail).find((detail) => detail !== undefined);
  if (known || busy === undefined) return sent;
  learnBusyPatchRefused(t.run, `concurrent revision-creating PATCHes answered ${sent.map(statusOf).join(', ')} (${busy})`);
  if (sent.some((a) => statusOf(a) === 200)) return sent;
  return concurrentPatches(t, id, bodies);
}

/**
 * A step's result, or the failure that stopped it (a step on another rule: the revisions listing,
 * CP-REVL-001, or a PATCH the test needs). The test throws it once the concurrent PATCHes' answers,
 * the half of CP-CONC-001 that needs neither, are judged: an unreadable listing does not hide a
 * PATCH answering another status than 200.
 */
async function stepOrStop<T>(step: () => Promise<T>): Promise<T | ConformanceFailure> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ConformanceFailure) return error;
    throw error;
  }
}

requirement(['CP-CONC-001', 'CP-CONC-002'], async (t: Check) => {
  const deployment = await sharedSimple(t, CONCURRENT);
  const n = atOnce(t.profile);
  const bodies = fc.sample(triggerPatch(generatorContext(t), 'secrets'), { numRuns: n + 1, seed: t.testSeed });
  // One PATCH alone first: concurrency is judged only on a target whose secrets PATCH adds a revision (CP-REV-006).
  // Where each PATCH waits for the revision in progress (deploymentPerPatch) it goes to a deployment
  // of its own, so its wait and the one before the concurrent PATCHes overlap.
  const alone = deploymentPerPatch(t) ? await createSimple(t, deployment.source, 'alone') : deployment;
  const [first] = await Promise.all([stepOrStop(() => patchAddingRevision(t, alone.id, bodies.pop()!)), alone === deployment ? undefined : untilIdle(t, deployment.id)]);
  // Counted from here: how many revisions a create makes is CP-REV-001's rule.
  const listedBefore = await stepOrStop(() => listRevisions(t, deployment.id));
  const sent = await concurrentPatches(t, deployment.id, bodies);

  const refusesBusy = t.profile.busyPatch === 'refused';
  const busyRefusal = (a: (typeof sent)[number]) => refusesBusy && is4xx(a) && typeof field(a.response?.json, 'detail') === 'string';
  const statuses = sent.map(statusOf);
  t.expect(sent.every((a) => statusOf(a) === 200 || busyRefusal(a)) && statuses.includes(200), {
    requirement: 'CP-CONC-001',
    message: `${n} concurrent revision-creating PATCHes did not all answer 200${refusesBusy ? ' (or a 4xx with a detail, as a target that refuses PATCHes while a revision is in progress may, and at least one 200)' : ''}.`,
    expected: refusesBusy ? 'HTTP 200, or a 4xx with {"detail": ...}, at least one 200' : statuses.map(() => 200),
    seen: sent.map((a) => (statusOf(a) === 200 ? 200 : `${statusOf(a) ?? 'no answer'} ${a.response?.text.slice(0, 120) ?? a.error ?? ''}`)),
  });
  if (first instanceof ConformanceFailure) throw first;
  if (listedBefore instanceof ConformanceFailure) throw listedBefore;
  const before = listedBefore.length;
  const answers = sent.filter((a) => statusOf(a) === 200);
  const accepted = answers.length;
  const reported = answers.map((a) => field(a.response?.json, 'latest_revision_id'));
  const revisions = await listRevisions(t, deployment.id);
  const listed = revisions.map((r) => field(r, 'id'));
  t.expect(revisions.length === before + accepted, {
    requirement: 'CP-CONC-001',
    message: `${accepted} accepted concurrent revision-creating PATCHes took the deployment from ${before} to ${revisions.length} revisions; expected ${before + accepted}.`,
    expected: before + accepted,
    seen: listed,
  });
  const lost = reported.filter((id) => !listed.includes(id));
  // With every revision listed, a PATCH that reports none of them, or another's, breaks what its answer names (CP-REV-013).
  t.expect(new Set(reported).size === accepted && lost.length === 0, {
    requirement: 'CP-REV-013',
    message: 'The concurrent PATCHes did not each report their own revision, all of them listed.',
    expected: `${accepted} distinct latest_revision_id values, each in the listing`,
    seen: { reported, listed },
  });

  // The newest by created_at, not by position: the listing's order is CP-REVL-002's rule.
  const created = (r: Record<string, unknown>) => (typeof r.created_at === 'string' ? Date.parse(r.created_at) : Number.NaN);
  const newest = revisions.reduce((a, b) => (created(b) > created(a) ? b : a));
  const after = await getDeployment(t, deployment.id);
  t.expect(reported.includes(after.latest_revision_id) && created(revisions.find((r) => r.id === after.latest_revision_id) ?? {}) === created(newest), {
    requirement: 'CP-CONC-002',
    message: 'After concurrent PATCHes latest_revision_id does not name the newest of their revisions (by created_at).',
    expected: `${String(newest.id)} (created ${String(newest.created_at)}) or another revision of that instant`,
    seen: after.latest_revision_id,
  });
}, {
  // The concurrent PATCHes wait for nothing; before them, where PATCHes wait for a revision in
  // progress, one revision (spread, unless the run's creates are limited) or two.
  cost: (p) =>
    deploymentPerPatch({ profile: p })
      ? refusedWaits(creates(2, 3 + atOnce(p)), 1)
      : refusedWaits(sharedCost(p, firstOffered(p, CONCURRENT), 1 + atOnce(p)), byLimit(p, { unlimited: 1, limited: 2 })),
});
