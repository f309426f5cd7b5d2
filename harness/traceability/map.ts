// The traceability map (requirements/traceability.yaml, read by read-map.ts): each statement of the spec, by anchor, to
// the requirements that cover it or to an exclusion with its kind and reason; and its rendering as
// docs/traceability.md, with the mutants (hand-written and generated) that break each requirement.
import type { Catalogue } from '../catalogue.ts';
import { explanationOf } from '../selftest/mutants/spec-derived/explained.ts';
import { selftestSubjects } from '../selftest/subject-list.ts';
import { isGenerated, type Mutant } from '../selftest/subjects.ts';
import { readTraceability } from './read-map.ts';
import { specStatements, type SpecStatement } from './spec-statements.ts';

export { EXCLUSION_KINDS, readTraceability, TRACEABILITY_FILE, type ExclusionKind, type Trace } from './read-map.ts';

/** Everything that breaks the map's two rules: an anchor mapped to nothing, a requirement mapped from no anchor. */
export function traceabilityProblems(catalogue: Catalogue, statements: SpecStatement[] = specStatements()): string[] {
  const { traces, problems } = readTraceability();
  const anchors = new Set(statements.map((s) => s.anchor));
  for (const s of statements) if (!traces.has(s.anchor) && !problems.some((p) => p.startsWith(`${s.anchor}:`))) problems.push(`${s.anchor}: maps to nothing ("${s.text.slice(0, 80)}")`);
  for (const anchor of traces.keys()) if (!anchors.has(anchor)) problems.push(`${anchor}: no statement of the spec has this anchor`);
  const traced = new Set<string>();
  for (const [anchor, trace] of traces) {
    if (!('ids' in trace)) continue;
    for (const id of trace.ids) {
      if (!catalogue.byId.has(id)) problems.push(`${anchor}: ${id} is not in the catalogue`);
      traced.add(id);
    }
  }
  for (const r of catalogue.requirements) if (!traced.has(r.id)) problems.push(`${r.id}: no anchor of the spec maps to it`);
  return problems;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** docs/traceability.md: per section, each statement with its requirements, their levels and the mutants that break them. */
export function renderTraceability(catalogue: Catalogue, mutants: { handWritten: Mutant[]; generated: Mutant[] }): string {
  const { traces } = readTraceability();
  const breakers = (list: Mutant[], id: string) => list.filter((m) => m.catches.includes(id)).map((m) => `\`${m.id}\``);
  const statements = specStatements();
  const lines = [
    '# Traceability: every statement of the spec to its requirements and mutants',
    '',
    'Generated from `requirements/traceability.yaml` by `npm run traceability`; do not edit by hand.',
    'Each statement of [the spec](spec/interfaces.md) (a table row, numbered rule, bullet or paragraph) has an anchor',
    '(`harness/traceability/spec-statements.ts`) and maps to the requirements that cover it, or to an exclusion with its',
    'reason. Mutants are the selftest subjects declared to break the requirement: hand-written ones',
    '(`harness/selftest/mutants/`) and ones a program derives from the spec\'s types (`harness/selftest/mutants/spec-derived/`),',
    'less the generated ones reviewed as survivors the spec allows or no request can observe (`explained.ts`).',
    '',
  ];
  const counts = { mapped: 0, excluded: 0 };
  let section = '';
  for (const s of statements) {
    if (s.section !== section) {
      section = s.section;
      lines.push(`## ${section}`, '', '| anchor | statement | requirements | hand-written mutants | generated mutants |', '|---|---|---|---|---|');
    }
    const trace = traces.get(s.anchor);
    if (!trace) continue;
    if ('ids' in trace) {
      counts.mapped += 1;
      const ids = trace.ids.map((id) => `${id} (${catalogue.byId.get(id)?.level ?? '?'})`).join(', ');
      const hand = [...new Set(trace.ids.flatMap((id) => breakers(mutants.handWritten, id)))];
      const generated = [...new Set(trace.ids.flatMap((id) => breakers(mutants.generated, id)))];
      lines.push(`| \`${s.anchor}\` | ${cell(s.text)} | ${ids} | ${hand.join(' ') || '–'} | ${generated.join(' ') || '–'} |`);
    } else {
      counts.excluded += 1;
      lines.push(`| \`${s.anchor}\` | ${cell(s.text)} | excluded, ${trace.excluded}: ${cell(trace.why)} | – | – |`);
    }
    if (statements[statements.indexOf(s) + 1]?.section !== section) lines.push('');
  }
  lines.splice(9, 0, `${statements.length} statements: ${counts.mapped} mapped to requirements, ${counts.excluded} excluded with a reason.`, '');
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The document as `npm run traceability` writes it: the selftest's mutants split by how they were made, without the generated survivors explained.ts explains. */
export function traceabilityDocument(catalogue: Catalogue): string {
  const mutants = selftestSubjects().filter((s): s is Mutant => s.kind === 'mutant');
  return renderTraceability(catalogue, { handWritten: mutants.filter((m) => !isGenerated(m)), generated: mutants.filter((m) => isGenerated(m) && !explanationOf(m.id)) });
}
