// How `apc certify` runs the reference implementation: `--reference process|container` and
// `--database memory|postgres`.
import type { ReferenceDatabase, ReferenceKind } from './reference-target.ts';

export interface ReferenceChoice {
  kind: ReferenceKind;
  database: ReferenceDatabase;
}

/** The choice, or a message naming the bad value. */
export function referenceChoice(kind = 'process', database = 'memory'): ReferenceChoice | string {
  if (kind !== 'process' && kind !== 'container') return `--reference: expected process or container, found ${JSON.stringify(kind)}.`;
  if (database !== 'memory' && database !== 'postgres') return `--database: expected memory or postgres, found ${JSON.stringify(database)}.`;
  return { kind, database };
}

/** The flags that start the same reference again (for repro lines); empty for the defaults. */
export function choiceFlags(choice: ReferenceChoice): string {
  return [choice.kind === 'process' ? '' : `--reference ${choice.kind}`, choice.database === 'memory' ? '' : `--database ${choice.database}`].filter(Boolean).join(' ');
}
