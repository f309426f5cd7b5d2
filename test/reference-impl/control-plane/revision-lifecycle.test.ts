// The revision state machine as pure planning: phases in order, deterministic failures, the
// active revision, and what happens to revisions a newer one supersedes.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ControlPlaneFault } from '../../../reference-impl/control-plane/faults.ts';
import type { Deployment, StoredRevision } from '../../../reference-impl/control-plane/records.ts';
import { planProgress, startRevision, TERMINAL_STATUSES } from '../../../reference-impl/control-plane/revision-lifecycle.ts';

const PHASE_MS = 10;
const noFaults = () => false;

function deploymentWith(revisions: StoredRevision[]): Deployment {
  return {
    id: revisions[0]!.deploymentId,
    tenant_id: randomUUID(),
    name: 'lifecycle',
    source: 'internal_container',
    source_config: {},
    source_revision_config: revisions[0]!.revision.source_revision_config,
    secrets: [],
    created_at: new Date(0).toISOString(),
    updated_at: new Date(0).toISOString(),
    status: 'AWAITING_DATABASE',
    latest_revision_id: revisions[0]!.revision.id,
    active_revision_id: null,
  };
}

function revision(deploymentId: string, seq: number, imageUri = 'registry.example.com/a:1', now = 0): StoredRevision {
  return startRevision({
    id: randomUUID(),
    deploymentId,
    seq,
    source: 'internal_container',
    config: { image_uri: imageUri },
    tarballMissing: false,
    now,
    phaseMs: PHASE_MS,
  });
}

/** Runs planning rounds at every phase boundary until nothing is due; returns each revision's status history. */
function runToEnd(deployment: Deployment, revisions: StoredRevision[], faults: (f: ControlPlaneFault) => boolean = noFaults) {
  let current = deployment;
  let stored = revisions;
  const history = new Map(stored.map((r) => [r.revision.id, [r.revision.status]]));
  for (let now = PHASE_MS; now <= PHASE_MS * 20; now += PHASE_MS) {
    const planned = planProgress({ now, phaseMs: PHASE_MS, faults })(current, stored);
    if (!planned.change) continue;
    current = planned.change.deployment;
    const updates = new Map((planned.change.updatedRevisions ?? []).map((r) => [r.revision.id, r]));
    stored = stored.map((r) => updates.get(r.revision.id) ?? r);
    for (const r of updates.values()) history.get(r.revision.id)!.push(r.revision.status);
  }
  return { deployment: current, revisions: stored, history };
}

describe('revision lifecycle', () => {
  it('moves one phase per step through every status to DEPLOYED, then the deployment is READY with it active', () => {
    const first = revision(randomUUID(), 1);
    const { deployment, history, revisions } = runToEnd(deploymentWith([first]), [first]);
    expect(history.get(first.revision.id)).toEqual(['CREATING', 'QUEUED', 'AWAITING_BUILD', 'BUILDING', 'AWAITING_DEPLOY', 'DEPLOYING', 'DEPLOYED']);
    expect(deployment.active_revision_id).toBe(first.revision.id);
    expect(deployment.status).toBe('READY');
    expect(revisions[0]!.nextTransitionAt).toBeNull();
  });

  it('does nothing before a revision is due', () => {
    const first = revision(randomUUID(), 1);
    expect(planProgress({ now: PHASE_MS - 1, phaseMs: PHASE_MS, faults: noFaults })(deploymentWith([first]), [first]).change).toBeUndefined();
  });

  it.each([
    ['fail-create', 'CREATING', 'CREATE_FAILED'],
    ['fail-build', 'BUILDING', 'BUILD_FAILED'],
    ['fail-deploy', 'DEPLOYING', 'DEPLOY_FAILED'],
  ])('an image_uri containing %s fails after %s with %s, and the deployment stays without an active revision', (marker, phase, failure) => {
    const first = revision(randomUUID(), 1, `registry.example.com/${marker}:1`);
    const { deployment, history } = runToEnd(deploymentWith([first]), [first]);
    const statuses = history.get(first.revision.id)!;
    expect(statuses.at(-1)).toBe(failure);
    expect(statuses.at(-2)).toBe(phase);
    expect(deployment.active_revision_id).toBeNull();
    expect(deployment.status).toBe('AWAITING_DATABASE');
  });

  it('fails the build of a revision whose tarball was never uploaded', () => {
    const first = { ...revision(randomUUID(), 1), tarballMissing: true };
    expect(runToEnd(deploymentWith([first]), [first]).history.get(first.revision.id)!.at(-1)).toBe('BUILD_FAILED');
  });

  it('interrupts older revisions still in progress when a newer one deploys', () => {
    const deploymentId = randomUUID();
    // The older revision is scheduled far behind the newer one, so the newer deploys first.
    const older = { ...revision(deploymentId, 1), nextTransitionAt: PHASE_MS * 50 };
    const newer = revision(deploymentId, 2);
    const { deployment, revisions } = runToEnd(deploymentWith([newer, older]), [newer, older]);
    const status = (r: StoredRevision) => revisions.find((x) => x.revision.id === r.revision.id)!.revision.status;
    expect(status(newer)).toBe('DEPLOYED');
    expect(status(older)).toBe('INTERRUPTED');
    expect(deployment.active_revision_id).toBe(newer.revision.id);
  });

  it('skips an older revision that would deploy after a newer one became active', () => {
    const deploymentId = randomUUID();
    const older = { ...revision(deploymentId, 1), revision: { ...revision(deploymentId, 1).revision, status: 'DEPLOYING' } };
    const newer = { ...revision(deploymentId, 2), revision: { ...revision(deploymentId, 2).revision, status: 'DEPLOYED' }, nextTransitionAt: null };
    const deployment = { ...deploymentWith([newer, older]), active_revision_id: newer.revision.id, status: 'READY' as const };
    const planned = planProgress({ now: PHASE_MS, phaseMs: PHASE_MS, faults: noFaults })(deployment, [newer, older]);
    expect(planned.change?.updatedRevisions?.map((r) => r.revision.status)).toEqual(['SKIPPED']);
    expect(planned.change?.deployment.active_revision_id).toBe(newer.revision.id);
  });

  it('ends every revision in a terminal status with nothing left scheduled', () => {
    const deploymentId = randomUUID();
    const revisions = [revision(deploymentId, 3, 'x/fail-deploy'), revision(deploymentId, 2), revision(deploymentId, 1, 'x/fail-build')];
    const result = runToEnd(deploymentWith(revisions), revisions);
    for (const r of result.revisions) {
      expect(TERMINAL_STATUSES.has(r.revision.status)).toBe(true);
      expect(r.nextTransitionAt).toBeNull();
    }
  });

  it('under the cp.revision-stuck fault, a revision stays in BUILDING', () => {
    const first = revision(randomUUID(), 1);
    const { history } = runToEnd(deploymentWith([first]), [first], (f) => f === 'cp.revision-stuck');
    expect(history.get(first.revision.id)!.at(-1)).toBe('BUILDING');
  });
});
