// What was switched on in the certified reference: its fault switches (--reference-fault) and its
// platform-like behaviours (--reference-platform-like). A run with either does not certify the
// reference as it ships, so every human-readable format says so next to the target, in these words.
import type { PlatformLikeOptions } from '../../reference-impl/platform-like/behaviours.ts';
import type { ComplianceReport } from './compliance.ts';

type Switches = Pick<ComplianceReport['target'], 'faults' | 'platformLike'>;

/** The report's record of a run's switches (both left out when off), from the plan's. */
export function switchesOf(faults: readonly string[], platformLike: PlatformLikeOptions | undefined): Switches {
  return {
    ...(faults.length > 0 ? { faults: [...faults] } : {}),
    ...(platformLike ? { platformLike: { behaviours: [...platformLike.behaviours], timeScale: platformLike.timeScale ?? 1 } } : {}),
  };
}

/** `fault switches on: a, b; platform-like behaviours on: x, y (time scale 0.1)`, or undefined when none were. */
export function switchedOnLine(target: Switches): string | undefined {
  const parts: string[] = [];
  if (target.faults && target.faults.length > 0) parts.push(`fault switches on: ${target.faults.join(', ')}`);
  const like = target.platformLike;
  if (like && like.behaviours.length > 0) {
    parts.push(`platform-like behaviours on: ${like.behaviours.join(', ')}${like.timeScale !== 1 ? ` (time scale ${like.timeScale})` : ''}`);
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
}
