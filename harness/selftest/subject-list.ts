// Every subject apc selftest certifies, in the order it runs them.
import { faultSwitchMutants } from './mutants/fault-switches.ts';
import { proxyMutantSubjects } from './mutants/proxy-mutants.ts';
import { generatedMutants } from './mutants/spec-derived/derive.ts';
import { hostileTargets } from './hostile.ts';
import type { Subject } from './subjects.ts';
import { platformVariations } from './platform-variations.ts';
import { variations } from './variations.ts';

export function selftestSubjects(): Subject[] {
  return [...faultSwitchMutants(), ...proxyMutantSubjects(), ...generatedMutants(), ...variations(), ...platformVariations(), ...hostileTargets()];
}

/**
 * Subjects whose certification waits out deadlines: a stream held open, a revision that never
 * leaves BUILDING, statistics never filled, an active revision that never moves (each wait ends at
 * the stream, deploy or statistics deadline). apc selftest certifies them first, each in a vitest
 * run of its own: in a shared run (harness/suite-runner/batches.ts) one of them would hold the run,
 * and the other subjects' reports, for half a minute. Any other subject may be listed; an id that
 * names none is a mistake (test/selftest/coverage.test.ts).
 */
export const WAITS_OUT = ['as.stream-held-open', 'cp.revision-stuck', 'eu.stats-never-filled', 'cp.active-revision-pinned', 'cp.active-revision-never-set'];

/** Subjects that mostly wait: platform-like variations (throttling, slow builds) and those of WAITS_OUT. */
export function waitsMost(subject: Subject): boolean {
  return (subject.kind === 'variation' && subject.platformLike !== undefined) || WAITS_OUT.includes(subject.id);
}
