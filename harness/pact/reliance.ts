// Which consumers rely on which requirement, from the `requirements` comments of their pact
// interactions: `apc contracts matrix` prints it, and a certification's report counts it.
import type { Catalogue } from '../catalogue.ts';
import type { RequirementResult } from '../report/compliance.ts';
import { readPactDir, type PactFile } from './pact-files.ts';

/** Requirement id → consumer → the providers it relies on the requirement of. */
export type Reliance = Map<string, Map<string, Set<string>>>;

export function relianceOf(pacts: PactFile[]): Reliance {
  const reliance: Reliance = new Map();
  for (const pact of pacts) {
    for (const id of pact.interactions.flatMap((i) => i.requirements)) {
      const consumers = reliance.get(id) ?? new Map<string, Set<string>>();
      consumers.set(pact.consumer, (consumers.get(pact.consumer) ?? new Set()).add(pact.provider));
      reliance.set(id, consumers);
    }
  }
  return new Map([...reliance].sort(([a], [b]) => a.localeCompare(b)));
}

function consumersText(consumers: Map<string, Set<string>>): string {
  return [...consumers]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([consumer, providers]) => `${consumer} (${[...providers].sort().join(', ')})`)
    .join(', ');
}

/** The matrix as text; ids no catalogue entry has are listed apart, as the consumer's mistake. */
export function renderMatrix(reliance: Reliance, catalogue: Catalogue): string {
  if (reliance.size === 0) return 'No interaction names a requirement.\n';
  const width = Math.max('requirement'.length, ...[...reliance.keys()].map((id) => id.length));
  const known = [...reliance].filter(([id]) => catalogue.byId.has(id));
  const unknown = [...reliance].filter(([id]) => !catalogue.byId.has(id));
  const lines = known.map(
    ([id, consumers]) => `${id.padEnd(width)}  ${catalogue.byId.get(id)!.level.padEnd(6)}  ${String(consumers.size).padStart(9)}  ${consumersText(consumers)}`,
  );
  if (unknown.length > 0) {
    lines.push('', 'Ids that are not in requirements/*.yaml (fix the consumer test that names them):');
    for (const [id, consumers] of unknown) lines.push(`${id.padEnd(width)}  ${consumersText(consumers)}`);
  }
  return `${'requirement'.padEnd(width)}  level   consumers  relied on by (providers)\n${lines.join('\n')}\n`;
}

/**
 * Sets `consumers` on each requirement some consumer relies on, from the pact files in `dir`
 * (written by the consumer tests). A certification without them, or with an unreadable one,
 * simply shows no counts.
 */
export function addConsumerCounts(requirements: RequirementResult[], dir: string): void {
  let pacts: PactFile[];
  try {
    pacts = readPactDir(dir);
  } catch {
    return;
  }
  const reliance = relianceOf(pacts);
  for (const r of requirements) {
    const consumers = reliance.get(r.id)?.size;
    if (consumers) r.consumers = consumers;
  }
}
