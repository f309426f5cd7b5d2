// `apc certify --replay DIR`: what to run again from a report folder. Exactly its failed
// requirements, with its seed and runs (so every property generates the same inputs), against
// the target it certified. Keys are never in a report: they come from the usual flags and
// variables again.
import type { Catalogue } from '../catalogue.ts';
import { INTERFACES, type InterfaceName } from '../profile.ts';
import type { ProfileSettings } from '../profile-sources.ts';
import { readReport, ReportError } from './read.ts';

export interface ReplayPlan {
  runId: string;
  ids: string[];
  interfaces: InterfaceName[];
  /** True when the report certified the in-repo reference implementation: start it again. */
  reference: boolean;
  /** Profile settings recorded in the report; flags given on the command line win over them. */
  settings: ProfileSettings;
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
  const { profile, urls, reference, controlPlaneMode } = report.target;
  const settings: ProfileSettings = {
    seed: String(report.seed),
    runs: String(profile.runs),
    controlPlaneMode,
    ...(reference
      ? {}
      : {
          controlPlaneUrl: urls['control-plane'],
          agentServerUrl: urls['agent-server'],
          tracingUrl: urls['experiment-upload'],
          tenantId: profile.tenantId,
          otherTenantId: profile.otherTenant?.tenantId,
        }),
  };
  return {
    runId: report.runId,
    ids: failed.map((r) => r.id),
    interfaces: INTERFACES.filter((i) => failed.some((r) => r.interface === i)),
    reference,
    settings,
  };
}
