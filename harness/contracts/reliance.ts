// Which consumers rely on which requirement, from the `requirements` comments of their pact
// interactions: `apc contracts matrix` prints it, and a certification's report counts it.
import type { Catalogue } from '../catalogue.ts';
import type { PactFile } from './pact-files.ts';

/** Requirement id → the consumers (with the provider they call) relying on it, sorted. */
export type Reliance = Map<string, string[]>;

export function relianceOf(pacts: PactFile[]): Reliance {
  const sets = new Map<string, Set<string>>();
  for (const pact of pacts) {
    for (const interaction of pact.interactions) {
      for (const id of interaction.requirements) {
        const set = sets.get(id) ?? new Set<string>();
        set.add(`${pact.consumer} → ${pact.provider}`);
        sets.set(id, set);
      }
    }
  }
  return new Map([...sets].sort(([a], [b]) => a.localeCompare(b)).map(([id, set]) => [id, [...set].sort()]));
}

/** Consumer names (without providers) per requirement: what a certification report counts. */
export function consumerCounts(pacts: PactFile[]): Map<string, number> {
  const names = new Map<string, Set<string>>();
  for (const pact of pacts) {
    for (const id of pact.interactions.flatMap((i) => i.requirements)) names.set(id, (names.get(id) ?? new Set()).add(pact.consumer));
  }
  return new Map([...names].map(([id, set]) => [id, set.size]));
}

/** The matrix as text; ids no catalogue entry has are listed apart, as the consumer's mistake. */
export function renderMatrix(reliance: Reliance, catalogue: Catalogue): string {
  if (reliance.size === 0) return 'No interaction names a requirement.\n';
  const width = Math.max(...[...reliance.keys()].map((id) => id.length));
  const known = [...reliance].filter(([id]) => catalogue.byId.has(id));
  const unknown = [...reliance].filter(([id]) => !catalogue.byId.has(id));
  const lines = known.map(([id, consumers]) => `${id.padEnd(width)}  ${catalogue.byId.get(id)!.level.padEnd(6)}  ${consumers.length}  ${consumers.join(', ')}`);
  if (unknown.length > 0) {
    lines.push('', 'Ids that are not in requirements/*.yaml (fix the consumer test that names them):');
    for (const [id, consumers] of unknown) lines.push(`${id.padEnd(width)}  ${consumers.join(', ')}`);
  }
  return `${'requirement'.padEnd(width)}  level   n  consumers\n${lines.join('\n')}\n`;
}
