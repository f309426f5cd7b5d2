// `apc certify --replay DIR`: what to run again from a report folder. Exactly its failed
// requirements, with its seed and runs (so every property generates the same inputs), against
// the target it certified, described by the profile recorded in the report as it was (sources,
// endpoints, fixtures, mode, hosting). Keys are never in a report: they come from the usual flags
// and variables again. A run of the reference with fault switches on is replayed with them on, and
// one with platform-like behaviours with the same behaviours and time scale.
import { parseBehaviours, type PlatformLikeOptions } from '../../reference-impl/platform-like/behaviours.ts';
import type { Catalogue } from '../catalogue.ts';
import { defaultProfile, INTERFACES, type InterfaceName, type TargetProfile } from '../profile/profile.ts';
import type { ComplianceReport } from './compliance.ts';
import { readReport, ReportError } from './read.ts';

export interface ReplayPlan {
  runId: string;
  ids: string[];
  interfaces: InterfaceName[];
  /** True when the report certified the in-repo reference implementation: start it again. */
  reference: boolean;
  /**
   * The recorded profile without its secrets (and without URLs for the reference, which starts on
   * new ports): the base that flags and APC_* variables given again are applied to.
   */
  profile: TargetProfile;
  /** The reference's fault switches that were on: the replay turns them on again. */
  faults: string[];
  /** The reference's platform-like behaviours and time scale, when they were on: the replay turns them on again. */
  platformLike?: PlatformLikeOptions;
  /** The recorded run had a second tenant: its key must be given again. */
  otherTenantId?: string;
}

export function replayPlan(dir: string, catalogue: Catalogue): ReplayPlan {
  const report = readReport(dir);
  const failed = report.requirements.filter((r) => r.status === 'failed');
  const gone = failed.filter((r) => !catalogue.byId.has(r.id)).map((r) => r.id);
  if (gone.length > 0) {
    throw new ReportError(
      `${dir} was made with catalogue ${report.catalogue.version}; ${gone.join(', ')} no longer exist in catalogue ${catalogue.version}. Replay it with the harness version that made it (${report.harness.version}).`,
    );
  }
  return recordedRun(report, failed.map((r) => r.id));
}

/** A recorded run's target and seed, to run `ids` of it again (a replay, or the rest of an interrupted run). */
export function recordedRun(report: ComplianceReport, ids: string[]): ReplayPlan {
  const { reference } = report.target;
  // Settings added after the report was written take their defaults.
  const recorded = { ...defaultProfile(), ...(report.target.profile as Partial<TargetProfile>) };
  const { apiKey: _key, otherTenant, ...rest } = recorded;
  const profile: TargetProfile = { ...rest, seed: report.seed, redact: [], ...(reference ? { urls: {}, tenantId: undefined } : {}) };
  const chosen = report.requirements.filter((r) => ids.includes(r.id));
  return {
    runId: report.runId,
    ids,
    interfaces: INTERFACES.filter((i) => chosen.some((r) => r.interface === i)),
    reference,
    faults: report.target.faults ?? [],
    ...(report.target.platformLike ? { platformLike: recordedPlatformLike(report.target.platformLike, report.runId) } : {}),
    profile,
    ...(otherTenant && !reference ? { otherTenantId: otherTenant.tenantId } : {}),
  };
}

/** The recorded platform-like settings, checked as the flags are (a report names only known behaviours). */
function recordedPlatformLike(recorded: NonNullable<ComplianceReport['target']['platformLike']>, runId: string): PlatformLikeOptions {
  const behaviours = parseBehaviours(recorded.behaviours.join(','));
  if (typeof behaviours === 'string') throw new ReportError(`the report of ${runId} records its reference's platform-like behaviours, but this harness has no such behaviour: ${behaviours}`);
  return { behaviours, timeScale: recorded.timeScale };
}
