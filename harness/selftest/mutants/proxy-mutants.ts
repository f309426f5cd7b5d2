// Every proxy mutant's record, by interface (as reference-impl/faults.ts lists the fault switches'):
// the faults no switch of the reference makes, each made by a rewriting proxy in front of it.
import type { InterfaceName } from '../../profile/profile.ts';
import { AGENT_SERVER_PROXY_MUTANTS } from './agent-server.ts';
import { AGENT_SERVER_PATH_PROXY_MUTANTS } from './agent-server-paths.ts';
import { CONTROL_PLANE_DEPLOYMENT_PROXY_MUTANTS } from './control-plane-deployments.ts';
import { CONTROL_PLANE_FIELD_PROXY_MUTANTS } from './control-plane-fields.ts';
import { CONTROL_PLANE_REVISION_PROXY_MUTANTS } from './control-plane-revisions.ts';
import { EXPERIMENT_UPLOAD_PROXY_MUTANTS } from './experiment-upload.ts';
import { proxyMutants, type ProxyMutant } from './mutant-record.ts';
import { INTERFACES } from '../../profile/profile.ts';
import type { Mutant } from '../subjects.ts';

export const PROXY_MUTANTS: Record<InterfaceName, readonly ProxyMutant[]> = {
  'control-plane': [...CONTROL_PLANE_DEPLOYMENT_PROXY_MUTANTS, ...CONTROL_PLANE_FIELD_PROXY_MUTANTS, ...CONTROL_PLANE_REVISION_PROXY_MUTANTS],
  'agent-server': [...AGENT_SERVER_PROXY_MUTANTS, ...AGENT_SERVER_PATH_PROXY_MUTANTS],
  'experiment-upload': EXPERIMENT_UPLOAD_PROXY_MUTANTS,
};

/** Every proxy mutant as the subject apc selftest certifies, interface by interface. */
export const proxyMutantSubjects = (): Mutant[] => INTERFACES.flatMap((iface) => proxyMutants(iface, PROXY_MUTANTS[iface]));
