// A fault switch is one record, kept in its interface's faults.ts next to the code it bends: what
// it changes, the rule it breaks, the requirements a certification with it on must fail (and no
// other), and the family of rules the selftest files it under. faults.md's tables are rendered
// from these records (fault-tables.ts), and `apc selftest` makes its mutants from them.
import type { Family } from '../schemas/vocabulary.ts';

export interface FaultSwitch {
  /** `cp.…`, `as.…` or `eu.…`: the name `apc serve --fault` and `--reference-fault` take. */
  readonly id: string;
  /** The deviation, in a sentence (Markdown). */
  readonly what: string;
  /** The rule of the spec it breaks. */
  readonly breaks: string;
  readonly family: Family;
  /**
   * The requirements certifying the reference with it on must fail, and no other, in that mode.
   * Absent for a switch that makes a hostile target instead (a stream that never ends).
   */
  readonly fails?: { readonly mode: 'hosted' | 'self-hosted'; readonly requirements: readonly string[] };
}
