// Reads the traceability map (requirements/traceability.yaml): anchor → requirement ids, or an
// exclusion. Its own file so that the generated mutants (which read it) and map.ts (which renders
// the map with every mutant) do not import each other.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REQUIREMENTS_DIR } from '../catalogue.ts';

export const TRACEABILITY_FILE = join(REQUIREMENTS_DIR, 'traceability.yaml');
export const EXCLUSION_KINDS = ['not shown', 'client value', 'not observable', 'description'] as const;
export type ExclusionKind = (typeof EXCLUSION_KINDS)[number];

export type Trace = { ids: string[] } | { excluded: ExclusionKind; why: string };

/** The map as written: anchor → requirement ids, or an exclusion. Shape problems are listed, not thrown. */
export function readTraceability(file = TRACEABILITY_FILE): { traces: Map<string, Trace>; problems: string[] } {
  const doc = parse(readFileSync(file, 'utf8')) as { anchors?: Record<string, unknown> };
  const traces = new Map<string, Trace>();
  const problems: string[] = [];
  for (const [anchor, value] of Object.entries(doc?.anchors ?? {})) {
    if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) traces.set(anchor, { ids: value });
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      const { excluded, why } = value as { excluded?: unknown; why?: unknown };
      if (!EXCLUSION_KINDS.includes(excluded as ExclusionKind)) problems.push(`${anchor}: excluded must be one of ${EXCLUSION_KINDS.join(', ')}, found ${JSON.stringify(excluded)}`);
      else if (typeof why !== 'string' || why.length < 10) problems.push(`${anchor}: an exclusion needs a why`);
      else traces.set(anchor, { excluded: excluded as ExclusionKind, why });
    } else problems.push(`${anchor}: expected a non-empty list of requirement ids or {excluded, why}, found ${JSON.stringify(value)}`);
  }
  return { traces, problems };
}
