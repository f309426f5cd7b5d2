// One shape for every mutant. A fault switch of the reference (reference-impl/fault-switch.ts) and
// a proxy mutant are the same record: id, what, breaks, family, fails. A proxy mutant adds the
// rewriting rules that make its fault in front of the reference (`rules`); a switch is made by the
// reference itself. `apc selftest` turns either into the subject it certifies (subjects.ts).
import type { FaultSwitch } from '../../../reference-impl/fault-switch.ts';
import type { InterfaceName } from '../../profile/profile.ts';
import type { ProxyRules } from '../../proxy/proxy.ts';
import type { Mutant, TargetKeys } from '../subjects.ts';

/** A fault made by a rewriting proxy in front of the reference, declared as a fault switch's record. */
export interface ProxyMutant extends FaultSwitch {
  /** A mutant always fails requirements (a switch without `fails` makes a hostile target instead). */
  readonly fails: NonNullable<FaultSwitch['fails']>;
  /** The proxy's rules, made afresh for each certification (they may keep state of the traffic). */
  readonly rules: (keys: TargetKeys) => ProxyRules;
}

/** The subject certifying `record` on `iface`: its proxy in front of the reference, or its switch on in it. */
export function mutantOf(iface: InterfaceName, record: ProxyMutant | (FaultSwitch & { fails: ProxyMutant['fails'] })): Mutant {
  const { id, what, family, fails } = record;
  const made = 'rules' in record ? { proxy: record.rules } : { faults: [id] };
  return { kind: 'mutant', id, what, interface: iface, mode: fails.mode, family, catches: [...fails.requirements], ...made };
}

/** The subjects of a list of proxy mutants of one interface. */
export const proxyMutants = (iface: InterfaceName, records: readonly ProxyMutant[]): Mutant[] => records.map((r) => mutantOf(iface, r));
