// What apc selftest certifies: deliberately broken variants of the reference implementation
// (mutants, which the harness must fail on the rules they break), valid variations of it (which
// it must certify: the spec allows them), and hostile targets (whose runs must end, with a report,
// within a bound). A mutant or variation is the in-process reference with fault switches on,
// a rewriting proxy in front of one interface, or both.
import type { ControlPlaneMode, InterfaceName } from '../profile/profile.ts';
import type { Family } from '../../schemas/vocabulary.ts';
import type { ProxyRules } from '../proxy/proxy.ts';
import type { PlatformLikeOptions } from '../../reference-impl/platform-like/behaviours.ts';

export { FAMILIES, type Family } from '../../schemas/vocabulary.ts';

/** What a proxy rule may know of the target behind it. */
export interface TargetKeys {
  apiKey: string;
  otherApiKey: string;
}

interface Bent {
  id: string;
  /** One line: how it departs from the reference. */
  what: string;
  interface: InterfaceName;
  /** The control plane's mode (default hosted); resource_spec exists only self-hosted. */
  mode?: ControlPlaneMode;
  /** Fault switches of the reference (reference-impl/<interface>/faults.md). */
  faults?: string[];
  /** A rewriting proxy in front of the interface. */
  proxy?: (keys: TargetKeys) => ProxyRules;
  /** Requirement patterns to certify (default: the whole interface). */
  scope?: string[];
  /** Behaviours of the real hosted platform switched on in the reference. */
  platformLike?: PlatformLikeOptions;
}

export interface Mutant extends Bent {
  kind: 'mutant';
  family: Family;
  /** The requirements that must fail on it, and no other (diagnosis precision). */
  catches: string[];
}

export interface Variation extends Bent {
  kind: 'variation';
  /**
   * Requirements it may fail on purpose: SHOULD or MAY shapes from the field notes that the
   * variation departs from (never a MUST). Reported, and not a false alarm.
   */
  departs?: string[];
}

export interface HostileTarget {
  kind: 'hostile';
  id: string;
  what: string;
  interface: InterfaceName;
  /** Starts the target: the URL to certify, the key it takes (any by default), and how to stop it. */
  start(): Promise<{ url: string; apiKey?: string; tenantId?: string; close(): Promise<void> }>;
  /** Requirement patterns to certify (default: the whole interface). */
  scope?: string[];
  /** The run must end, with a report, within this. */
  boundMs: number;
}

export type Subject = Mutant | Variation | HostileTarget;

/** Generated protocol mutants (harness/selftest/mutants/spec-derived/) carry ids starting with `gen.`. */
export const isGenerated = (subject: Subject): boolean => subject.id.startsWith('gen.');
