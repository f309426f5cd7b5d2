// Fault switches of the experiment upload listener: deliberate deviations from the spec, each
// small and marked where it acts, so the harness's negative self-tests can check that a broken
// server is caught. faults.md describes each one.
import type { ReferenceContext } from '../context.ts';

export const TRACING_FAULTS = [
  'eu.no-window-check',
  'eu.stats-filled-at-upload',
  'eu.tokens-not-null',
  'eu.no-grouping',
  'eu.dataset-required-not-enforced',
  'eu.internal-dataset-accepted',
  'eu.stats-never-filled',
  'eu.missing-dataset-in-response',
] as const;

export type TracingFault = (typeof TRACING_FAULTS)[number];

/** The tracing faults switched on in `ctx`. */
export type FaultCheck = (fault: TracingFault) => boolean;

export function faultsOf(ctx: Pick<ReferenceContext, 'faults'>): FaultCheck {
  return (fault) => ctx.faults.has(fault);
}
