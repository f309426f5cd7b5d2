// Hostile targets: each run against one must end, with a report, within its bound.
import type { HostileTarget } from './subjects.ts';

export function hostileTargets(): HostileTarget[] {
  return [];
}
