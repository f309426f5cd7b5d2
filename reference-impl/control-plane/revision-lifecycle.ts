// How a revision progresses (statuses from the field notes): CREATING → QUEUED → AWAITING_BUILD →
// BUILDING → AWAITING_DEPLOY → DEPLOYING → DEPLOYED, one step per phase. Failures are
// deterministic, triggered by marker words in the revision's own values (README.md lists them).
// Progress is planned here as pure functions; the store applies it under the deployment's lock.
import type { Source, SourceRevisionConfig } from './api-types.ts';
import type { FaultCheck } from './faults.ts';
import type { Deployment, DeploymentChange, StoredRevision } from './records.ts';
import type { ChangePlan } from './store.ts';

const PHASES = ['CREATING', 'QUEUED', 'AWAITING_BUILD', 'BUILDING', 'AWAITING_DEPLOY', 'DEPLOYING', 'DEPLOYED'] as const;
type Phase = (typeof PHASES)[number];

/** Statuses a revision never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set([
  'DEPLOYED',
  'CREATE_FAILED',
  'BUILD_FAILED',
  'DEPLOY_FAILED',
  'SKIPPED',
  'INTERRUPTED',
  'UNKNOWN',
]);

/** Every revision status (field notes). */
export const REVISION_STATUSES: readonly string[] = [...PHASES.slice(0, -1), ...TERMINAL_STATUSES];

/** Marker words: a revision whose `image_uri` or `repo_ref` contains one fails at that phase. */
export const FAILURE_MARKERS = {
  CREATING: { marker: 'fail-create', status: 'CREATE_FAILED' },
  BUILDING: { marker: 'fail-build', status: 'BUILD_FAILED' },
  DEPLOYING: { marker: 'fail-deploy', status: 'DEPLOY_FAILED' },
} as const satisfies Partial<Record<Phase, { marker: string; status: string }>>;

export interface RevisionSeed {
  id: string;
  deploymentId: string;
  seq: number;
  source: Source;
  config: SourceRevisionConfig;
  tarballMissing: boolean;
  now: number;
  phaseMs: number;
}

export function startRevision(seed: RevisionSeed): StoredRevision {
  const at = new Date(seed.now).toISOString();
  return {
    deploymentId: seed.deploymentId,
    seq: seed.seq,
    nextTransitionAt: seed.now + seed.phaseMs,
    tarballMissing: seed.tarballMissing,
    revision: {
      id: seed.id,
      created_at: at,
      updated_at: at,
      status: 'CREATING',
      source: seed.source,
      source_revision_config: seed.config,
    },
  };
}

function failureAfter(stored: StoredRevision, phase: string): string | undefined {
  if (!(phase in FAILURE_MARKERS)) return undefined;
  const { marker, status } = FAILURE_MARKERS[phase as keyof typeof FAILURE_MARKERS];
  const { image_uri, repo_ref } = stored.revision.source_revision_config;
  if ([image_uri, repo_ref].some((value) => typeof value === 'string' && value.includes(marker))) return status;
  if (phase === 'BUILDING' && stored.tarballMissing) return status;
  return undefined;
}

function nextStatus(stored: StoredRevision): string {
  const current = stored.revision.status;
  const failure = failureAfter(stored, current);
  if (failure) return failure;
  const index = PHASES.indexOf(current as Phase);
  return index >= 0 && index < PHASES.length - 1 ? PHASES[index + 1]! : 'UNKNOWN';
}

export interface ProgressOptions {
  now: number;
  phaseMs: number;
  faults: FaultCheck;
}

function withStatus(stored: StoredRevision, status: string, options: ProgressOptions): StoredRevision {
  const stuck = status === 'BUILDING' && options.faults('cp.revision-stuck');
  return {
    ...stored,
    // FAULT cp.revision-stuck: a revision that reaches BUILDING is never scheduled again.
    nextTransitionAt: TERMINAL_STATUSES.has(status) || stuck ? null : options.now + options.phaseMs,
    revision: { ...stored.revision, status, updated_at: new Date(options.now).toISOString() },
  };
}

/**
 * Advances every due revision of a deployment by one step, oldest first. A revision reaching
 * DEPLOYED becomes the active revision and the deployment READY; older revisions still in
 * progress end INTERRUPTED. A revision that would deploy while a newer one is already active ends
 * SKIPPED instead.
 */
export function planProgress(options: ProgressOptions): ChangePlan<void> {
  return (current: Deployment, revisions: StoredRevision[]) => {
    const due = revisions
      .filter((r) => r.nextTransitionAt !== null && r.nextTransitionAt <= options.now)
      .sort((a, b) => a.seq - b.seq);
    if (due.length === 0) return { result: undefined };
    const latest = new Map(revisions.map((r) => [r.revision.id, r]));
    let deployment = current;
    for (const dueRevision of due) {
      const stored = latest.get(dueRevision.revision.id)!;
      if (TERMINAL_STATUSES.has(stored.revision.status)) continue;
      const next = nextStatus(stored);
      if (next !== 'DEPLOYED') {
        latest.set(stored.revision.id, withStatus(stored, next, options));
        // FAULT cp.failed-revision-active: a revision that failed is named the active revision.
        if (next.includes('FAILED') && options.faults('cp.failed-revision-active')) deployment = { ...deployment, active_revision_id: stored.revision.id };
        continue;
      }
      const active = deployment.active_revision_id ? latest.get(deployment.active_revision_id) : undefined;
      if (active && active.seq > stored.seq) {
        latest.set(stored.revision.id, withStatus(stored, 'SKIPPED', options));
        continue;
      }
      latest.set(stored.revision.id, withStatus(stored, 'DEPLOYED', options));
      for (const older of latest.values()) {
        if (older.seq < stored.seq && !TERMINAL_STATUSES.has(older.revision.status)) {
          latest.set(older.revision.id, withStatus(older, 'INTERRUPTED', options));
        }
      }
      deployment = {
        ...deployment,
        status: 'READY',
        active_revision_id: stored.revision.id,
        updated_at: new Date(options.now).toISOString(),
      };
    }
    const updatedRevisions = revisions
      .map((r) => latest.get(r.revision.id)!)
      .filter((r, i) => r !== revisions[i]);
    const change: DeploymentChange = { deployment, updatedRevisions };
    return { change, result: undefined };
  };
}
