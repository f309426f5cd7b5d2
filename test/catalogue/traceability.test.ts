// Every statement of the spec is traced: each anchor maps to requirements or to an exclusion with
// its reason, each requirement is mapped from an anchor, and docs/traceability.md is the map's
// rendering (regenerate it with `npm run traceability`).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.ts';
import { ROOT } from '../../harness/root.ts';
import { readTraceability, traceabilityDocument, traceabilityProblems } from '../../harness/traceability/map.ts';
import { specStatements } from '../../harness/traceability/spec-statements.ts';

const catalogue = loadCatalogue();

describe('traceability of the spec', () => {
  test('every anchor maps to requirements or an exclusion with its reason, and every requirement to an anchor', () => {
    expect(traceabilityProblems(catalogue)).toEqual([]);
  });

  test('anchors are unique, and every kind of normative statement has them', () => {
    const statements = specStatements();
    expect(new Set(statements.map((s) => s.anchor)).size).toBe(statements.length);
    expect(new Set(statements.map((s) => s.kind))).toEqual(new Set(['row', 'rule', 'bullet', 'paragraph']));
    // Spot checks: a table row, a numbered rule, a bullet.
    expect(statements.find((s) => s.anchor === '2.1/source_revision_config')?.text).toContain('Holds the values of the latest revision');
    expect(statements.find((s) => s.anchor === '4.3/rule-4')?.text).toContain('must fall between');
    expect(statements.find((s) => s.anchor === '1.B/each-deployment-serves-its-own')?.kind).toBe('bullet');
  });

  test('an anchor that maps to nothing, or a requirement no anchor maps to, is a problem', () => {
    const added = `${readFileSync(join(ROOT, 'docs', 'spec', 'interfaces.md'), 'utf8')}\n- A new rule nobody mapped yet.\n`;
    expect(traceabilityProblems(catalogue, specStatements(added))).toEqual([expect.stringMatching(/^9\/a-new-rule-nobody-mapped: maps to nothing/)]);
    const extra = { ...catalogue, requirements: [...catalogue.requirements, { ...catalogue.requirements[0]!, id: 'CP-NEW-001' }] };
    expect(traceabilityProblems(extra)).toEqual(['CP-NEW-001: no anchor of the spec maps to it']);
  });

  test('exclusions carry one of the reasons', () => {
    const { traces, problems } = readTraceability();
    expect(problems).toEqual([]);
    const kinds = new Set([...traces.values()].flatMap((t) => ('excluded' in t ? [t.excluded] : [])));
    expect([...kinds].sort()).toEqual(['client value', 'description', 'not observable', 'not shown']);
  });

  test('docs/traceability.md is generated from the map', () => {
    const file = join(ROOT, 'docs', 'traceability.md');
    const rendered = traceabilityDocument(catalogue);
    if (process.env.APC_UPDATE_DOCS) writeFileSync(file, rendered);
    // The mutant columns follow the selftest's subject list, which other work extends; the
    // statements, requirements and exclusions must be the map's as it is.
    const withoutMutants = (text: string) => text.replace(/^(\| `[^`]+` \|.*)\| [^|]* \| [^|]* \|$/gm, '$1| … | … |');
    expect(withoutMutants(readFileSync(file, 'utf8')), 'run npm run traceability').toBe(withoutMutants(rendered));
  });
});
