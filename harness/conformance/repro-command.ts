// The command that runs a failure's requirements again with the run's target and seed: the
// `repro` of every failure a test records, its own and those it saw on its way (findings.ts).
import { apcCommand } from '../apc-command.ts';
import type { Check } from './check.ts';

/** `npx apc certify <the run's flags> --seed N --requirements A,B` (`apc` where one is on PATH). */
export function reproCommand(check: Check, requirements: readonly string[]): string {
  return `${apcCommand()} certify ${check.run.reproFlags} --seed ${check.profile.seed} --requirements ${requirements.join(',')}`.replace(/\s+/g, ' ').trim();
}
