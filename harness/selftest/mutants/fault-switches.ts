// Mutants from the reference implementation's fault switches: each switch's record (in its
// interface's faults.ts) names the requirements it fails and its family. A switch without
// requirements to fail makes a hostile target instead (hostile.ts), not a mutant.
import { FAULT_SWITCHES } from '../../../reference-impl/faults.ts';
import { INTERFACES } from '../../profile/profile.ts';
import type { Mutant } from '../subjects.ts';
import { mutantOf } from './mutant-record.ts';

/** Every switch that fails requirements, as a mutant. */
export function faultSwitchMutants(): Mutant[] {
  return INTERFACES.flatMap((iface) => FAULT_SWITCHES[iface].flatMap((record) => (record.fails ? [mutantOf(iface, { ...record, fails: record.fails })] : [])));
}
