// Fault names given on the command line must be switches the reference has: a typo would
// otherwise certify the reference without the deviation the user meant to test.
import { closest } from '../closest.ts';
import { ALL_FAULTS } from '../../reference-impl/faults.ts';
import { apcCommand } from '../apc-command.ts';

/** A message naming each unknown fault and the closest known ones; undefined when all are known. */
export function unknownFaultMessage(flag: string, names: string[]): string | undefined {
  const unknown = names.filter((n) => !ALL_FAULTS.includes(n));
  if (unknown.length === 0) return undefined;
  const each = unknown.map((n) => {
    const near = closest(n, ALL_FAULTS, 2);
    return `"${n}"${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}`;
  });
  return `${flag}: unknown fault ${each.join(', ')}; \`${apcCommand()} help serve\` lists the fault names.`;
}
